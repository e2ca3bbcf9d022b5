/**
 * The runner's bookkeeping with fake stages, on both stores (SQLite and a hub's PostgreSQL). The runner stamps its
 * own writes with the real clock, so rows are added at `Date.now()` and the drain's `now` moves past any backoff
 * explicitly. Which commits wait for the disk, and SQLite's start-up and stop, are SQLite's own (runner.test.ts).
 * Here: deaths of the service or of a task's own process, and a stage that outlived its lease.
 */
import { describe, expect, test } from "bun:test";
import { runJob } from "../../src/pipeline/runner.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { TaskProcessDied } from "../../src/pipeline/task-process.ts";
import { POISON_CRASHES } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { barrier, countingStage, fakeStages } from "../helpers/pipeline-harness.ts";
import { BACKOFF_MS, LEASE_MS, MINUTE, runnerFixture } from "../helpers/runner-contract.ts";

describeEachStore("runner", (s) => {
  let deps: PipelineDeps;
  let t0: number;
  const { f, runUntilEmpty, logged, drawn, archivedAt } = runnerFixture(s, (fresh) => void ({ deps, t0 } = fresh));

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
