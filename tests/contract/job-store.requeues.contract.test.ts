/**
 * The job store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL: jobs sent
 * back to work: a save to draw again, the owner's retry and reprocess, and start-up with keys.
 */
import { beforeEach, expect, test } from "bun:test";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import { advanceChange, type JobRow } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { jobStoreFixture, T0 } from "../helpers/job-store-contract.ts";

describeEachStore("job store", (s) => {
  let store: JobStore;
  beforeEach(() => void (store = s.stores.jobs));
  const { f, addJob, claimed } = jobStoreFixture(s);

  test("a save sent back to draw again: a job at rest goes to generate with a push, a running one is flagged for its holder", async () => {
    const rest = await addJob(T0, { stage: "done", state: "done", notify: false });
    const restSave = (await f.job(rest)).saveId!;
    await store.requeueForRedraw(restSave, T0 + 1);
    expect(await f.job(rest)).toMatchObject({ stage: "generate", state: "pending", notify: true, attempts: 0, runAt: T0 + 1 });

    const job = await claimed(T0 + 1);
    await store.requeueForRedraw(restSave, T0 + 3);
    expect(await f.job(rest)).toMatchObject({ state: "running", rerun: true, leaseId: job.leaseId });
    expect(await store.record(job, advanceChange("done", T0 + 4), T0 + 4)).toBe("redraw");
    expect(await f.job(rest)).toMatchObject({ stage: "generate", state: "pending", rerun: false, notify: true, leaseId: null });

    const orphanSave = await f.saveWithoutJob(T0);
    await store.requeueForRedraw(orphanSave, T0 + 5);
    expect(await f.jobOfSave(orphanSave)).toMatchObject({ stage: "generate", state: "pending", notify: true });
  });

  test("the owner's retry: failed jobs start again; failed deliveries are due again and their finished save goes back to notify", async () => {
    const failed = await addJob(T0, { state: "failed", stage: "generate", attempts: 5, lastError: "boom", crashes: 2, processDeaths: 1 });
    const untouched = await addJob(T0, { state: "failed", stage: "generate", attempts: 5, lastError: "other" });
    const delivered = await addJob(T0, { state: "done", stage: "done" });
    const deliveredSave = (await f.job(delivered)).saveId!;
    await f.addDelivery(deliveredSave, "alice", "failed", T0);
    await f.addDelivery(deliveredSave, "bob", "sent", T0);

    expect(await store.retryFailed(T0 + 10, (await f.job(failed)).saveId!)).toEqual({ jobs: 1, deliveries: 0 });
    expect(await f.job(failed)).toMatchObject({ state: "pending", stage: "generate", runAt: T0 + 10, attempts: 0, lastError: null, crashes: 0, processDeaths: 0 });
    expect(await f.job(untouched)).toMatchObject({ state: "failed", lastError: "other" });

    expect(await store.retryFailed(T0 + 20)).toEqual({ jobs: 1, deliveries: 1 });
    expect(await f.job(untouched)).toMatchObject({ state: "pending", attempts: 0 });
    expect(await f.job(delivered)).toMatchObject({ state: "pending", stage: "notify", notify: true, runAt: T0 + 20 });
    expect((await f.deliveriesOf(deliveredSave)).map((d) => [d.target, d.state, d.attempts, d.nextAttemptAt, d.lastError])).toEqual([
      ["alice", "pending", 0, T0 + 20, null],
      ["bob", "sent", 3, T0, null],
    ]);
  });

  test("the owner's retry restarts a failed job at the stage it failed in; a finished save with nothing failed stays done", async () => {
    const broken = await addJob(T0, { stage: "archive", state: "failed", attempts: 3, lastError: "disk full" });
    const finished = await addJob(T0, { stage: "done", state: "done" });
    await f.addDelivery((await f.job(finished)).saveId!, "alice", "sent", T0);
    expect(await store.retryFailed(T0 + 100)).toEqual({ jobs: 1, deliveries: 0 });
    expect(await f.job(broken)).toMatchObject({ stage: "archive", state: "pending", attempts: 0, lastError: null, runAt: T0 + 100 });
    expect(await f.job(finished)).toMatchObject({ stage: "done", state: "done" });
  });

  test("the owner's retry for one save leaves every other save's failed job and failed deliveries as they are", async () => {
    const mine = await addJob(T0, { state: "failed" });
    const otherFailed = await addJob(T0, { state: "failed", lastError: "other" });
    const otherDone = await addJob(T0, { state: "done", stage: "done" });
    const otherSave = (await f.job(otherDone)).saveId!;
    await f.addDelivery(otherSave, "alice", "failed", T0);
    expect(await store.retryFailed(T0 + 100, (await f.job(mine)).saveId!)).toEqual({ jobs: 1, deliveries: 0 });
    expect((await f.job(mine)).state).toBe("pending");
    expect(await f.job(otherFailed)).toMatchObject({ state: "failed", lastError: "other" });
    expect((await f.job(otherDone)).state).toBe("done");
    expect((await f.deliveriesOf(otherSave)).map((d) => d.state)).toEqual(["failed"]);
  });

  test("reprocess: every stage of a save at rest runs again, its deliveries start over with notify; a running save is left to its holder", async () => {
    const id = await addJob(T0, { state: "done", stage: "done" });
    const saveId = (await f.job(id)).saveId!;
    await f.addDelivery(saveId, "alice", "sent", T0);
    expect(await store.reprocess(saveId, false, T0 + 10)).toBe(true);
    expect(await f.job(id)).toMatchObject({ stage: "generate", state: "pending", notify: false, forcePush: false, runAt: T0 + 10 });
    expect(await f.deliveriesOf(saveId)).toHaveLength(1);

    await f.setJob(id, { state: "done", stage: "done" });
    expect(await store.reprocess(saveId, true, T0 + 20)).toBe(true);
    expect(await f.job(id)).toMatchObject({ stage: "generate", state: "pending", notify: true, forcePush: true });
    expect(await f.deliveriesOf(saveId)).toEqual([]);

    const running = await claimed(T0 + 30);
    expect(running.id).toBe(id);
    await f.addDelivery(saveId, "bob", "sent", T0 + 30);
    expect(await store.reprocess(saveId, true, T0 + 40)).toBe(false);
    expect(await f.job(id)).toMatchObject({ state: "running", leaseId: running.leaseId, notify: true, forcePush: true, runAt: T0 + 20 });
    expect(await f.deliveriesOf(saveId)).toHaveLength(1);
    expect(await store.reprocess(saveId + 1000, true, T0 + 40)).toBe(false);
  });

  test("reprocess gives a save without a job (its job deleted by retention) a fresh one", async () => {
    const saveId = await f.saveWithoutJob(T0);
    expect(await store.reprocess(saveId, false, T0 + 10)).toBe(true);
    expect(await f.jobOfSave(saveId)).toMatchObject({ stage: "generate", state: "pending", runAt: T0 + 10 });
  });

  test("keys at start-up: waiting jobs resume; saves are judged again on their last two blocks, a failed one that can be a save runs again", async () => {
    const waiting = await addJob(T0, { state: "waiting_for_key", attempts: 2 });
    const failed = await addJob(T0, { state: "failed", attempts: 3 });
    expect(await store.resumeWaitingForKey(T0 + 10)).toBe(1);
    expect(await f.job(waiting)).toMatchObject({ state: "pending", attempts: 0, runAt: T0 + 10 });
    expect((await f.job(failed)).state).toBe("failed");

    const ending = (last: number) => Uint8Array.from({ length: 48 }, (_, i) => (i === 47 ? last : i));
    const jobOf = async (encrypted: Uint8Array, fields: Partial<JobRow>) => {
      const { id } = await f.jobOfSave(await s.rows.save({ at: T0, bytes: encrypted }));
      await f.setJob(id, fields);
      return id;
    };
    const nowASave = await jobOf(ending(7), { state: "failed", implausible: true, lastError: "not a save under these keys" });
    const noLonger = await jobOf(ending(1), { state: "pending", implausible: false });
    const partBlock = await jobOf(new Uint8Array(33).fill(7), { state: "pending", implausible: false });
    const tails: number[][] = [];
    const mayBeSave = (tail: Uint8Array) => (tails.push([...tail]), tail[tail.length - 1] === 7);
    expect(await store.rejudgePlausibility(mayBeSave, T0 + 20)).toBe(1);
    expect(tails).toContainEqual([...ending(7).subarray(16)]);
    expect(await f.job(nowASave)).toMatchObject({ state: "pending", implausible: false, attempts: 0, lastError: null, runAt: T0 + 20 });
    expect(await f.job(noLonger)).toMatchObject({ state: "pending", implausible: true });
    expect(await f.job(partBlock)).toMatchObject({ implausible: true });
  });
});
