/**
 * The runner's bookkeeping with fake stages, on both stores (SQLite and a hub's PostgreSQL): results moved through
 * the stages, retries with backoff and redaction, a commit that cannot be written, dispatch by subject, deaths of
 * the service or of a task's own process, and a stage that outlived its lease. The runner stamps its own writes with
 * the real clock, so rows are added at `Date.now()` and the drain's `now` moves past any backoff explicitly. Which
 * commits wait for the disk, and SQLite's start-up and stop, are SQLite's own (runner.test.ts).
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { unknownResourceLog } from "../../src/pipeline/unknown-resources.ts";
import { flushLog } from "../../src/log.ts";
import { runJob, type Stages } from "../../src/pipeline/runner.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { TaskProcessDied } from "../../src/pipeline/task-process.ts";
import { POISON_CRASHES, type ClaimedJob, type JobRow } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { barrier, countingStage, fakeStages } from "../helpers/pipeline-harness.ts";
import { drawnWrites } from "../helpers/rows.ts";

const MINUTE = 60_000;
const LEASE_MS = 60_000;
/** Two retries: attempt 1 waits ~1 s, attempt 2 ~2 s, attempt 3 is the last. */
const BACKOFF_MS = [1_000, 2_000];
/** A secret the deps know: error text must never carry it. */
const SECRET = "sekrit-webhook-token-0123456789";

/** A job's fields as a test sets them; the job of a new save unless `saveId` or `reportId` is given. */
type JobFields = Partial<Omit<JobRow, "id">> & { runAt: number };

describeEachStore("runner", (s) => {
  let deps: PipelineDeps;
  let logs: string[];
  let spies: ReturnType<typeof spyOn>[];
  let t0: number;
  beforeEach(() => {
    const config = { ...s.config, pipeline: { ...s.config.pipeline, leaseMs: LEASE_MS, backoffMs: BACKOFF_MS } };
    const { deliveries, jobs, stageStore, notifyReads, watch, nudges } = s.stores;
    const routing = { players: new Map(), barkKeys: {} };
    const workers = { run: () => Promise.reject(new Error("the fake stages ask no worker")) };
    deps = { deliveries, jobs, stageStore, notifyReads, watch, config, workers, routing, links: { linkedPlayer: async () => null }, secrets: [SECRET], archive: s.archive, nudge: { nudges, links: { linkedPlayer: async () => null }, routing, config, secrets: [SECRET] }, logUnknownResources: unknownResourceLog() } as unknown as PipelineDeps;
    logs = [];
    const capture = (...parts: unknown[]) => void logs.push(parts.join(" "));
    spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "warn").mockImplementation(capture)];
    t0 = Date.now();
  });
  afterEach(() => {
    flushLog();
    for (const spy of spies) spy.mockRestore();
  });
  const f = {
    addSave: (at: number) => s.rows.save({ at }),
    addReport: (at: number) => s.rows.report(undefined, at),
    /** The job of the save or report (as its upload or report enqueued it) given `fields` directly: returns its id. */
    addJob: async ({ saveId, reportId, ...fields }: JobFields) => {
      const job = reportId != null ? await s.jobRows.jobOfReport(reportId) : await s.jobRows.jobOfSave(saveId ?? (await s.rows.save({ at: fields.runAt })));
      await s.jobRows.set(job.id, { stage: "generate", state: "pending", createdAt: fields.runAt, updatedAt: fields.runAt, ...fields });
      return job.id;
    },
    /** Another save's archive row in `relPath` (to stand in a stage's way), its job at rest. */
    addOtherArchive: async (relPath: string) => {
      const saveId = await s.rows.save({ at: t0, playerId: "1000000000000000001" });
      await s.jobRows.set((await s.jobRows.jobOfSave(saveId)).id, { stage: "done", state: "done" });
      await s.sql.insert("archives", { saveId, playerId: "1000000000000000001", relPath, token: crypto.randomUUID(), files: ["save.bin"], createdAt: 0 });
    },
    job: (id: number) => s.jobRows.job(id),
    archiveOf: async (saveId: number) => (await s.stores.stageStore.saveToDraw(saveId))?.archivePath ?? null,
    outputsOf: async (saveId: number) => (await s.stores.stageStore.saveToDraw(saveId))?.save.outputs,
  };

  /** Claims due jobs at `now` (oldest first, as the poller does) and runs each to its recorded outcome; returns how many ran. */
  async function runUntilEmpty(stages: Stages, now: number, max = 50): Promise<number> {
    for (let ran = 0; ran < max; ran += 1) {
      const job = await s.stores.jobs.claim(now, LEASE_MS, false);
      if (!job) return ran;
      await runJob(deps, job, stages);
    }
    throw new Error(`queue not empty after ${max} runs`);
  }
  const logged = () => (flushLog(), logs.join("\n"));
  /** Writes that record the save's archive in `folder`: visible proof of whether the stage's writes landed. */
  const drawn = (saveId: number, folder = "drawn") => drawnWrites(saveId, `by-id/p/${folder}-${saveId}`);
  const archivedAt = (saveId: number) => f.archiveOf(saveId);

  describe("stage results", () => {
    test("advance moves the job through every stage to done, committing each stage's writes and then its afterCommit", async () => {
      const saveId = await f.addSave(t0);
      const id = await f.addJob({ saveId, runAt: t0 });
      const events: Promise<string>[] = [];
      const step = (name: string, next: "archive" | "notify" | "done") =>
        countingStage(() => ({ kind: "advance", next, writes: drawn(saveId, name), afterCommit: () => void events.push(archivedAt(saveId).then((at) => `${name} committed=${at}`)) }));
      const stages = fakeStages({ generate: step("generate", "archive"), archive: step("archive", "notify"), notify: step("notify", "done") });

      // Each advance makes the next stage due at the runner's clock, which is past t0 by now.
      expect(await runUntilEmpty(stages, t0 + MINUTE)).toBe(3);
      expect(await f.job(id)).toMatchObject({ stage: "done", state: "done", attempts: 0, lastError: null, leaseId: null });
      expect(await archivedAt(saveId)).toBe(`by-id/p/notify-${saveId}`);
      // Each afterCommit runs once its stage's writes are committed: a read it starts sees them (or, on a pool
      // of connections that answers it late, a later stage's), never the stage's before.
      const names = ["generate", "archive", "notify"];
      const seen = (await Promise.all(events)).map((event) => event.split(" committed=by-id/p/"));
      expect(seen.map(([name]) => name)).toEqual(names);
      seen.forEach(([, folder], i) => expect(names.indexOf(folder!.replace(`-${saveId}`, ""))).toBeGreaterThanOrEqual(i));
    });

    test("a thrown error is retried with backoff, redacted, and fails after the budget with the last error", async () => {
      const id = await f.addJob({ runAt: t0 });
      const generate = countingStage((run) => {
        throw new Error(`render ${run} failed at https://hooks.example/${SECRET}`);
      });
      const stages = fakeStages({ generate });

      expect(await runUntilEmpty(stages, t0)).toBe(1);
      const retry = await f.job(id);
      expect(retry).toMatchObject({ state: "pending_retry", attempts: 1, lastError: "render 1 failed at https://hooks.example/***" });
      expect(retry.runAt - t0).toBeGreaterThanOrEqual(BACKOFF_MS[0]! * 0.8);
      expect(retry.runAt - Date.now()).toBeLessThanOrEqual(BACKOFF_MS[0]! * 1.2);
      expect(await runUntilEmpty(stages, retry.runAt - 1)).toBe(0);

      expect(await runUntilEmpty(stages, t0 + 10 * MINUTE)).toBe(BACKOFF_MS.length);
      expect(generate.runs).toBe(BACKOFF_MS.length + 1);
      expect(await f.job(id)).toMatchObject({ state: "failed", attempts: BACKOFF_MS.length + 1, lastError: "render 3 failed at https://hooks.example/***" });
      expect(logged()).not.toContain(SECRET);
    });

    test("later comes back at its time without spending a retry", async () => {
      const id = await f.addJob({ runAt: t0, stage: "notify" });
      const notify = countingStage((run) => (run <= 5 ? { kind: "later", runAt: t0 + run * MINUTE, note: "delivery backoff" } : { kind: "advance", next: "done" }));
      const stages = fakeStages({ notify });

      expect(await runUntilEmpty(stages, t0)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "pending_retry", runAt: t0 + MINUTE, attempts: 0, lastError: null });
      for (let run = 2; run <= 6; run += 1) expect(await runUntilEmpty(stages, t0 + (run - 1) * MINUTE)).toBe(1);
      expect(notify.runs).toBe(6);
      expect(await f.job(id)).toMatchObject({ stage: "done", state: "done" });
    });

    test("fail is permanent and commits its writes with the transition", async () => {
      const saveId = await f.addSave(t0);
      const id = await f.addJob({ saveId, runAt: t0 });
      let after = 0;
      const generate = countingStage(() => ({ kind: "fail", reason: "save does not decrypt", writes: drawn(saveId), afterCommit: () => void (after += 1) }));

      expect(await runUntilEmpty(fakeStages({ generate }), t0 + 10 * MINUTE)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "failed", attempts: 1, lastError: "save does not decrypt", leaseId: null });
      expect(await archivedAt(saveId)).toBe(`by-id/p/drawn-${saveId}`);
      expect(after).toBe(1);
    });

    test("a commit that cannot be written counts as a failed attempt and leaves none of its writes", async () => {
      const saveId = await f.addSave(t0);
      const id = await f.addJob({ saveId, runAt: t0 });
      let after = 0;
      // Another save's archive holds the folder: the archive row breaks its unique path after the save's outputs were written.
      await f.addOtherArchive(`by-id/p/drawn-${saveId}`);
      const generate = countingStage(() => ({ kind: "advance", next: "archive", writes: drawn(saveId), afterCommit: () => void (after += 1) }));
      const stages = fakeStages({ generate });

      expect(await runUntilEmpty(stages, t0)).toBe(1);
      expect(await f.job(id)).toMatchObject({ stage: "generate", state: "pending_retry", attempts: 1 });
      expect((await f.job(id)).lastError).toStartWith("could not record the stage: ");
      expect(await f.outputsOf(saveId)).toBeNull();
      expect(after).toBe(0);

      expect(await runUntilEmpty(stages, t0 + 10 * MINUTE)).toBe(BACKOFF_MS.length);
      expect(await f.job(id)).toMatchObject({ stage: "generate", state: "failed", attempts: BACKOFF_MS.length + 1 });
    });

    test("an afterCommit that throws is logged and does not undo the committed transition", async () => {
      const id = await f.addJob({ runAt: t0 });
      const generate = countingStage(() => ({
        kind: "advance",
        next: "archive",
        afterCommit: () => {
          throw new Error(`cleanup failed for ${SECRET}`);
        },
      }));
      expect(await runUntilEmpty(fakeStages({ generate }), t0)).toBe(1);
      expect(await f.job(id)).toMatchObject({ stage: "archive", state: "pending", attempts: 0 });
      expect(logged().split("\n").some((line) => line.includes("after-commit step failed") && line.includes("***"))).toBe(true);
      expect(logged()).not.toContain(SECRET);
    });

    test("wait_for_key parks the job until the service starts with keys", async () => {
      const id = await f.addJob({ runAt: t0 });
      const generate = countingStage((run) => (run === 1 ? { kind: "wait_for_key" } : { kind: "advance", next: "done" }));
      const stages = fakeStages({ generate });

      expect(await runUntilEmpty(stages, t0 + 10 * MINUTE)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "waiting_for_key", lastError: "no AES key configured" });
      expect(await s.stores.jobs.resumeWaitingForKey(t0 + 10 * MINUTE)).toBe(1);
      expect(await runUntilEmpty(stages, t0 + 10 * MINUTE)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "done", attempts: 0 });
    });
  });

  test("dispatch: evaluate gets the report job, a save stage the save job; a stage and subject that do not match fail without running", async () => {
    const reportId = await f.addReport(t0);
    const reportJob = await f.addJob({ reportId, stage: "evaluate", runAt: t0 });
    const saveId = await f.addSave(t0);
    const saveJob = await f.addJob({ saveId, stage: "archive", runAt: t0 });
    const saveAtEvaluate = await f.addJob({ stage: "evaluate", runAt: t0 });
    const reportAtGenerate = await f.addJob({ reportId: await f.addReport(t0), stage: "generate", runAt: t0 });
    const seen: ClaimedJob["subject"][] = [];
    const stages = fakeStages({
      evaluate: async (_deps, job) => (seen.push(job.subject), { kind: "advance", next: "done" }),
      archive: async (_deps, job) => (seen.push(job.subject), { kind: "advance", next: "done" }),
    });

    expect(await runUntilEmpty(stages, t0)).toBe(4);
    expect(seen).toEqual([{ kind: "report", reportId }, { kind: "save", saveId }]);
    expect((await f.job(reportJob)).state).toBe("done");
    expect((await f.job(saveJob)).state).toBe("done");
    expect(await f.job(saveAtEvaluate)).toMatchObject({ state: "failed", attempts: 1, lastError: "stage evaluate cannot run a save job" });
    expect(await f.job(reportAtGenerate)).toMatchObject({ state: "failed", attempts: 1, lastError: "stage generate cannot run a report job" });
  });

  describe("crashes and takeovers", () => {
    /** A job its holder left running when it died, its lease expired by `t0`. */
    const orphan = (fields: { attempts?: number } = {}) => f.addJob({ runAt: t0 - MINUTE, state: "running", leaseId: "dead", leaseExpiresAt: t0 - 1, ...fields });

    test("a death of the service while a job ran costs it no attempt; from then on its tasks run in a process of their own", async () => {
      const id = await orphan({ attempts: BACKOFF_MS.length + 1 });
      expect(await s.stores.jobs.reclaimAtStart(t0)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "pending", attempts: BACKOFF_MS.length, processDeaths: 1, crashes: 0 });
      expect(await s.stores.jobs.claim(t0, LEASE_MS, false)).toMatchObject({ id, isolated: true, crashes: 0 });
      // Died again while it ran (its lease since expired): still never failed for it, however often.
      for (let death = 1; death <= 10; death++) {
        expect(await s.stores.jobs.reclaimAtStart(t0 + death * 2 * LEASE_MS)).toBe(1);
        await s.stores.jobs.claim(t0 + death * 2 * LEASE_MS, LEASE_MS, false);
      }
      expect(await s.stores.jobs.reclaimAtStart(t0 + 22 * LEASE_MS)).toBe(1);
      const generate = countingStage(() => ({ kind: "advance", next: "done" }));
      expect(await runUntilEmpty(fakeStages({ generate }), t0 + 22 * LEASE_MS)).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "done", processDeaths: 0, crashes: 0 });
    });

    test(`its task's own process dying ${POISON_CRASHES} times in a row parks the job as failed with its reason; retry runs it again`, async () => {
      const id = await orphan();
      await s.stores.jobs.reclaimAtStart(t0);
      const generate = countingStage(() => {
        throw new TaskProcessDied("signal SIGSEGV");
      });
      expect(await runUntilEmpty(fakeStages({ generate }), t0 + MINUTE)).toBe(POISON_CRASHES);
      const parked = await f.job(id);
      expect(parked).toMatchObject({ state: "failed", crashes: POISON_CRASHES, attempts: 0 });
      expect(parked.lastError).toBe(`parked: its task's own process died ${POISON_CRASHES} times in a row (last: signal SIGSEGV); a save that crashes the server? retry runs it again`);
      expect((await s.stores.jobs.retryFailed(t0)).jobs).toBe(1);
      expect(await f.job(id)).toMatchObject({ state: "pending", crashes: 0, processDeaths: 0, lastError: null });
    });

    test("a run that ends clears the count of its task process's deaths", async () => {
      const id = await orphan();
      await s.stores.jobs.reclaimAtStart(t0);
      const generate = countingStage((run) => {
        if (run < POISON_CRASHES) throw new TaskProcessDied("signal SIGKILL");
        return { kind: "advance", next: "done" };
      });
      expect(await runUntilEmpty(fakeStages({ generate }), t0 + MINUTE)).toBe(POISON_CRASHES);
      expect(await f.job(id)).toMatchObject({ state: "done", crashes: 0, processDeaths: 0 });
    });

    test("fencing: the result of a stage that outlived its lease is not recorded", async () => {
      const saveId = await f.addSave(t0);
      const id = await f.addJob({ saveId, runAt: t0 });
      const gate = barrier();
      let after = 0;
      const stages = fakeStages({
        generate: async () => {
          await gate.wait();
          return { kind: "advance", next: "archive", writes: drawn(saveId), afterCommit: () => void (after += 1) };
        },
      });

      const old = (await s.stores.jobs.claim(t0, LEASE_MS, false))!;
      const running = runJob(deps, old, stages);
      await gate.arrived;
      // Another runner finds the lease expired (a frozen process) and takes the job over.
      const taker = (await s.stores.jobs.claim(t0 + 2 * LEASE_MS, LEASE_MS, false))!;
      expect(taker.id).toBe(id);
      gate.release();
      await running;

      expect(after).toBe(0);
      expect(await f.job(id)).toMatchObject({ stage: "generate", state: "running", attempts: 2, leaseId: taker.leaseId });
      expect(await archivedAt(saveId)).toBeNull();
      expect(await f.outputsOf(saveId)).toBeNull();
      expect(logged()).toContain("lease lost");
    });
  });
});
