/**
 * The runner's bookkeeping with fake stages, on both stores (SQLite and a hub's PostgreSQL). The runner stamps its
 * own writes with the real clock, so rows are added at `Date.now()` and the drain's `now` moves past any backoff
 * explicitly. Which commits wait for the disk, and SQLite's start-up and stop, are SQLite's own (runner.test.ts).
 * Here: results moved through the stages, retries with backoff and redaction, a commit that cannot be written,
 * dispatch by subject.
 */
import { describe, expect, test } from "bun:test";
import type { ClaimedJob } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { countingStage, fakeStages } from "../helpers/pipeline-harness.ts";
import { BACKOFF_MS, MINUTE, runnerFixture, SECRET } from "../helpers/runner-contract.ts";

describeEachStore("runner", (s) => {
  let t0: number;
  const { f, runUntilEmpty, logged, drawn, archivedAt } = runnerFixture(s, (fresh) => void ({ t0 } = fresh));

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
});
