/**
 * The runner's bookkeeping with fake stages. It stamps its own writes with the real clock, so rows are
 * inserted at `Date.now()` and the drain's `now` moves past any backoff explicitly.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { replayableCommit } from "../../src/db/open.ts";
import { recordArchiveRow } from "../../src/db/stage-writes.ts";
import { claimJob, reclaimOrphans, releaseRunning, resumeWaitingForKey, retryFailed } from "../../src/db/jobs/index.ts";
import { runJob } from "../../src/pipeline/runner.ts";
import { TaskProcessDied } from "../../src/pipeline/task-process.ts";
import {
  BACKOFF_MS,
  barrier,
  countingStage,
  fakeStages,
  insertJob,
  insertReport,
  insertSave,
  jobRow,
  LEASE_MS,
  openHarness,
  runUntilEmpty,
  SECRET,
  type Harness,
} from "../helpers/pipeline-harness.ts";
import { drawnWrites } from "../helpers/stage-stores.ts";
import { POISON_CRASHES, type JobSubject } from "../../src/store/model/jobs.ts";
import type { JobStage } from "../../src/store/model/jobs.ts";

const MINUTE = 60_000;
let h: Harness;
let t0: number;
beforeEach(() => {
  h = openHarness();
  t0 = Date.now();
});
afterEach(() => h.close());

/** Writes that record the save's archive in `folder`: visible proof of whether the stage's writes landed. */
const drawn = (saveId: number, folder = "drawn") => drawnWrites(saveId, `by-id/p/${folder}-${saveId}`);
const archivedAt = (saveId: number) => (h.db.$client.query("SELECT rel_path FROM archives WHERE save_id = ?").get(saveId) as { rel_path: string } | null)?.rel_path ?? null;
const outputsOf = (saveId: number) => (h.db.$client.query("SELECT outputs FROM saves WHERE id = ?").get(saveId) as { outputs: string | null }).outputs;

/** The connection's synchronous setting at each transaction the stage store opens (the one a stage is recorded in). */
function synchronousAtEachRecord(): { seen: number[]; restore: () => void } {
  const seen: number[] = [];
  const original = h.db.transaction.bind(h.db);
  const spy = spyOn(h.db, "transaction").mockImplementation(((...args: Parameters<typeof original>) => {
    seen.push((h.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous);
    return original(...args);
  }) as typeof h.db.transaction);
  return { seen, restore: () => spy.mockRestore() };
}

describe("stage results", () => {
  test("advance moves the job through every stage to done, committing each stage's writes and then its afterCommit", async () => {
    const saveId = insertSave(h.db, t0);
    const id = insertJob(h.db, { saveId, runAt: t0 });
    const events: string[] = [];
    const step = (name: string, next: JobStage) =>
      countingStage(() => ({ kind: "advance", next, writes: drawn(saveId, name), afterCommit: () => void events.push(`${name} committed=${archivedAt(saveId)}`) }));
    const stages = fakeStages({ generate: step("generate", "archive"), archive: step("archive", "notify"), notify: step("notify", "done") });

    // Each advance makes the next stage due at the runner's clock, which is past t0 by now.
    expect(await runUntilEmpty(h, stages, { now: t0 + MINUTE })).toBe(3);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "done", state: "done", attempts: 0, last_error: null, lease_id: null });
    expect(archivedAt(saveId)).toBe(`by-id/p/notify-${saveId}`);
    expect(events).toEqual(["generate", "archive", "notify"].map((name) => `${name} committed=by-id/p/${name}-${saveId}`));
  });

  test("a stage's writes commit without waiting for the disk, unless it asks to be durable", async () => {
    // The setting of the connection the stage's writes are committed on, read as its transaction opens.
    const { seen, restore } = synchronousAtEachRecord();
    for (const durable of [false, true]) {
      const saveId = insertSave(h.db, t0);
      insertJob(h.db, { saveId, runAt: t0 });
      const generate = countingStage(() => ({ kind: "advance", next: "done", durable, writes: drawn(saveId) }));
      expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + MINUTE })).toBe(1);
    }
    restore();
    const [NORMAL, FULL] = [1, 2];
    expect(seen).toEqual([NORMAL, FULL]);
  });

  test("a thrown error is retried with backoff, redacted, and fails after the budget with the last error", async () => {
    const id = insertJob(h.db, { runAt: t0 });
    const generate = countingStage((run) => {
      throw new Error(`render ${run} failed at https://hooks.example/${SECRET}`);
    });
    const stages = fakeStages({ generate });

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(1);
    const retry = jobRow(h.db, id);
    expect(retry).toMatchObject({ state: "pending_retry", attempts: 1, last_error: "render 1 failed at https://hooks.example/***" });
    expect(retry.run_at - t0).toBeGreaterThanOrEqual(BACKOFF_MS[0]! * 0.8);
    expect(retry.run_at - Date.now()).toBeLessThanOrEqual(BACKOFF_MS[0]! * 1.2);
    expect(await runUntilEmpty(h, stages, { now: retry.run_at - 1 })).toBe(0);

    expect(await runUntilEmpty(h, stages, { now: t0 + 10 * MINUTE })).toBe(BACKOFF_MS.length);
    expect(generate.runs).toBe(BACKOFF_MS.length + 1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "failed", attempts: BACKOFF_MS.length + 1, last_error: "render 3 failed at https://hooks.example/***" });
    expect(h.logs.join("\n")).not.toContain(SECRET);
  });

  test("later comes back at its time without spending a retry", async () => {
    const id = insertJob(h.db, { runAt: t0 });
    const notify = countingStage((run) => (run <= 5 ? { kind: "later", runAt: t0 + run * MINUTE, note: "delivery backoff" } : { kind: "advance", next: "done" }));
    const stages = fakeStages({ notify });
    h.db.$client.query("UPDATE jobs SET stage = 'notify' WHERE id = ?").run(id);

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "pending_retry", run_at: t0 + MINUTE, attempts: 0, last_error: null });
    for (let run = 2; run <= 6; run += 1) expect(await runUntilEmpty(h, stages, { now: t0 + (run - 1) * MINUTE })).toBe(1);
    expect(notify.runs).toBe(6);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "done", state: "done" });
  });

  test("fail is permanent and commits its writes with the transition", async () => {
    const saveId = insertSave(h.db, t0);
    const id = insertJob(h.db, { saveId, runAt: t0 });
    let after = 0;
    const generate = countingStage(() => ({ kind: "fail", reason: "save does not decrypt", writes: drawn(saveId), afterCommit: () => void (after += 1) }));

    expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + 10 * MINUTE })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "failed", attempts: 1, last_error: "save does not decrypt", lease_id: null });
    expect(archivedAt(saveId)).toBe(`by-id/p/drawn-${saveId}`);
    expect(after).toBe(1);
  });

  test("a commit that cannot be written counts as a failed attempt and leaves none of its writes", async () => {
    const saveId = insertSave(h.db, t0);
    const id = insertJob(h.db, { saveId, runAt: t0 });
    let after = 0;
    // Another save's archive holds the folder: the archive row breaks its unique path after the save's outputs were written.
    const other = insertSave(h.db, t0, "other");
    const taken = drawnWrites(other, `by-id/p/drawn-${saveId}`);
    if (taken.kind === "drawn") h.db.transaction((tx) => recordArchiveRow(tx, other, taken.archive, t0));
    const generate = countingStage(() => ({ kind: "advance", next: "archive", writes: drawn(saveId), afterCommit: () => void (after += 1) }));
    const stages = fakeStages({ generate });

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "generate", state: "pending_retry", attempts: 1 });
    expect(jobRow(h.db, id).last_error).toStartWith("could not record the stage: ");
    expect(outputsOf(saveId)).toBeNull();
    expect(after).toBe(0);

    expect(await runUntilEmpty(h, stages, { now: t0 + 10 * MINUTE })).toBe(BACKOFF_MS.length);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "generate", state: "failed", attempts: BACKOFF_MS.length + 1 });
  });

  test("an afterCommit that throws is logged and does not undo the committed transition", async () => {
    const id = insertJob(h.db, { runAt: t0 });
    const generate = countingStage(() => ({
      kind: "advance",
      next: "archive",
      afterCommit: () => {
        throw new Error(`cleanup failed for ${SECRET}`);
      },
    }));
    expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "archive", state: "pending", attempts: 0 });
    expect(h.logs.some((line) => line.includes("after-commit step failed") && line.includes("***"))).toBe(true);
    expect(h.logs.join("\n")).not.toContain(SECRET);
  });

  test("wait_for_key parks the job until the service starts with keys", async () => {
    const id = insertJob(h.db, { runAt: t0 });
    const generate = countingStage((run) => (run === 1 ? { kind: "wait_for_key" } : { kind: "advance", next: "done" }));
    const stages = fakeStages({ generate });

    expect(await runUntilEmpty(h, stages, { now: t0 + 10 * MINUTE })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "waiting_for_key", last_error: "no AES key configured" });
    expect(resumeWaitingForKey(h.db, t0 + 10 * MINUTE)).toBe(1);
    expect(await runUntilEmpty(h, stages, { now: t0 + 10 * MINUTE })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "done", attempts: 0 });
  });
});

describe("dispatch", () => {
  test("evaluate gets the report job, a save stage the save job; a stage and subject that do not match fail without running", async () => {
    const reportId = insertReport(h.db, t0);
    const reportJob = insertJob(h.db, { reportId, stage: "evaluate", runAt: t0 });
    const saveId = insertSave(h.db, t0);
    const saveJob = insertJob(h.db, { saveId, stage: "archive", runAt: t0 });
    const saveAtEvaluate = insertJob(h.db, { stage: "evaluate", runAt: t0 });
    const reportAtGenerate = insertJob(h.db, { reportId: insertReport(h.db, t0), stage: "generate", runAt: t0 });
    const seen: JobSubject[] = [];
    const stages = fakeStages({
      evaluate: async (_deps, job) => (seen.push(job.subject), { kind: "advance", next: "done" }),
      archive: async (_deps, job) => (seen.push(job.subject), { kind: "advance", next: "done" }),
    });

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(4);
    expect(seen).toEqual([{ kind: "report", reportId }, { kind: "save", saveId }]);
    expect(jobRow(h.db, reportJob).state).toBe("done");
    expect(jobRow(h.db, saveJob).state).toBe("done");
    expect(jobRow(h.db, saveAtEvaluate)).toMatchObject({ state: "failed", attempts: 1, last_error: "stage evaluate cannot run a save job" });
    expect(jobRow(h.db, reportAtGenerate)).toMatchObject({ state: "failed", attempts: 1, last_error: "stage generate cannot run a report job" });
  });
});

describe("crashes and takeovers", () => {
  test("a death of the service while a job ran costs it no attempt; from then on its tasks run in a process of their own", async () => {
    const id = insertJob(h.db, { runAt: t0, state: "running", attempts: BACKOFF_MS.length + 1, leaseId: "dead", leaseExpiresAt: t0 + LEASE_MS });
    expect(reclaimOrphans(h.db, t0)).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "pending", attempts: BACKOFF_MS.length, process_deaths: 1, crashes: 0 });
    expect(claimJob(h.db, t0, LEASE_MS)).toMatchObject({ id, isolated: true, crashes: 0 });
    // Died again while it ran: still never failed for it, however often.
    for (let death = 0; death < 10; death++) {
      reclaimOrphans(h.db, t0);
      claimJob(h.db, t0, LEASE_MS);
    }
    reclaimOrphans(h.db, t0);
    const generate = countingStage(() => ({ kind: "advance", next: "done" }));
    expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + 1 })).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "done", process_deaths: 0, crashes: 0 });
  });

  test(`its task's own process dying ${POISON_CRASHES} times in a row parks the job as failed with its reason; retry runs it again`, async () => {
    const id = insertJob(h.db, { runAt: t0, state: "running", leaseId: "dead", leaseExpiresAt: t0 + LEASE_MS });
    reclaimOrphans(h.db, t0);
    const generate = countingStage(() => {
      throw new TaskProcessDied("signal SIGSEGV");
    });
    expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + MINUTE })).toBe(POISON_CRASHES);
    const parked = jobRow(h.db, id);
    expect(parked).toMatchObject({ state: "failed", crashes: POISON_CRASHES, attempts: 0 });
    expect(parked.last_error).toBe(`parked: its task's own process died ${POISON_CRASHES} times in a row (last: signal SIGSEGV); a save that crashes the server? retry runs it again`);
    expect(retryFailed(h.db, t0).jobs).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "pending", crashes: 0, process_deaths: 0, last_error: null });
  });

  test("a run that ends clears the count of its task process's deaths", async () => {
    const id = insertJob(h.db, { runAt: t0, state: "running", leaseId: "dead", leaseExpiresAt: t0 + LEASE_MS });
    reclaimOrphans(h.db, t0);
    const generate = countingStage((run) => {
      if (run < POISON_CRASHES) throw new TaskProcessDied("signal SIGKILL");
      return { kind: "advance", next: "done" };
    });
    expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + MINUTE })).toBe(POISON_CRASHES);
    expect(jobRow(h.db, id)).toMatchObject({ state: "done", crashes: 0, process_deaths: 0 });
  });

  test("a clean shutdown releases running jobs without counting a death or an attempt", () => {
    const id = insertJob(h.db, { runAt: t0 });
    expect(claimJob(h.db, t0, LEASE_MS)!.id).toBe(id);
    expect(releaseRunning(h.db, t0)).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "pending", attempts: 0, process_deaths: 0, crashes: 0, lease_id: null });
    expect(reclaimOrphans(h.db, t0)).toBe(0);
  });

  test("orphan reclaim: a job left running by a dead process waits out its lease unless reclaimed at start-up", async () => {
    const id = insertJob(h.db, { runAt: t0 - MINUTE, state: "running", attempts: 1, leaseId: "dead", leaseExpiresAt: t0 + LEASE_MS });
    const generate = countingStage(() => ({ kind: "advance", next: "done" }));
    const stages = fakeStages({ generate });

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(0);
    expect(reclaimOrphans(h.db, t0)).toBe(1);
    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(1);
    expect(generate.runs).toBe(1);
    expect(jobRow(h.db, id).state).toBe("done");
  });

  test("fencing: the result of a stage that outlived its lease is not recorded", async () => {
    const saveId = insertSave(h.db, t0);
    const id = insertJob(h.db, { saveId, runAt: t0 });
    const gate = barrier();
    let after = 0;
    const stages = fakeStages({
      generate: async () => {
        await gate.wait();
        return { kind: "advance", next: "archive", writes: drawn(saveId), afterCommit: () => void (after += 1) };
      },
    });

    const old = claimJob(h.db, t0, LEASE_MS)!;
    const running = runJob(h.deps, old, stages);
    await gate.arrived;
    // Another runner finds the lease expired (a frozen process) and takes the job over.
    const taker = claimJob(h.db, t0 + 2 * LEASE_MS, LEASE_MS)!;
    expect(taker.id).toBe(id);
    gate.release();
    await running;

    expect(after).toBe(0);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "generate", state: "running", attempts: 2, lease_id: taker.leaseId });
    expect(archivedAt(saveId)).toBeNull();
    expect(outputsOf(saveId)).toBeNull();
    expect(h.logs.some((line) => line.includes("lease lost"))).toBe(true);
  });
});

describe("which commits wait for the disk", () => {
  const synchronous = () => (h.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  const FULL = 2;
  const NORMAL = 1;

  test("stage records are replayable (no fsync) except notify's, whose push must never be undone; FULL stays the default", async () => {
    const saveId = insertSave(h.db, t0);
    insertJob(h.db, { saveId, runAt: t0 });
    const { seen, restore } = synchronousAtEachRecord();
    const step = (next: JobStage) => countingStage(() => ({ kind: "advance", next }));
    const stages = fakeStages({ generate: step("archive"), archive: step("notify"), notify: step("done") });
    expect(await runUntilEmpty(h, stages, { now: t0 + MINUTE })).toBe(3);
    restore();
    // generate, archive, notify in turn.
    expect(seen).toEqual([NORMAL, NORMAL, FULL]);
    expect(synchronous()).toBe(FULL);
  });

  test("a replayable write that throws still leaves the connection at FULL", () => {
    expect(() =>
      replayableCommit(h.db, () => {
        throw new Error("disk full");
      }),
    ).toThrow("disk full");
    expect(synchronous()).toBe(FULL);
  });
});
