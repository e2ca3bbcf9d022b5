/**
 * The job store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL: claim order
 * as SQLite has always done it, exclusive claims, the poller's next due time. (The backoff's jitter, a pure function,
 * is in queue.test.ts.)
 */
import { beforeEach, expect, test } from "bun:test";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { DAY, FORGOTTEN, jobStoreFixture, LEASE, SUBSCRIBED, T0, UNSUBSCRIBED } from "../helpers/job-store-contract.ts";

describeEachStore("job store", (s) => {
  let store: JobStore;
  beforeEach(() => void (store = s.stores.jobs));
  const { f, addJob, claim, claimed } = jobStoreFixture(s);

  test("claims the oldest id first, only when due, under a fresh lease; never a failed, done or waiting job", async () => {
    const first = await addJob(T0);
    const second = await addJob(T0 - 5_000);
    const later = await addJob(T0 + 5_000);
    for (const state of ["failed", "done", "waiting_for_key"] as const) await addJob(T0 - 9_000, { state });

    const job = await claimed(T0);
    expect(job).toMatchObject({ id: first, stage: "generate", attempts: 1, notify: true, subject: { kind: "save", saveId: (await f.job(first)).saveId! }, isolated: false });
    expect(await f.job(first)).toMatchObject({ state: "running", attempts: 1, leaseId: job.leaseId, leaseExpiresAt: T0 + LEASE });
    expect(await claim(T0)).toBe(second);
    expect(await claim(T0)).toBeNull();
    expect(await store.nextDueAt()).toBe(T0 + 5_000);
    expect(await claim(T0 + 5_000)).toBe(later);
    expect(await store.nextDueAt()).toBeNull();
  });

  test("real saves before retried ones before junk; with plausibleOnly no junk at all", async () => {
    const junk = [await addJob(T0 - 9_000, { implausible: true }), await addJob(T0 - 9_000, { implausible: true })];
    const retried = await addJob(T0 - 1_000, { state: "pending_retry" });
    const real = await addJob(T0);
    expect(await claim(T0)).toBe(real);
    expect(await claim(T0)).toBe(retried);
    expect(await claim(T0, true)).toBeNull();
    expect(await claim(T0)).toBe(junk[0]!);
    expect(await claim(T0)).toBe(junk[1]!);
  });

  test("a save of a player some bot subscribes to is claimed before fresh ones queued earlier (a retried one still after them), judged when it is queued", async () => {
    const earlier = await addJob(T0 - 9_000, {}, UNSUBSCRIBED);
    await f.subscribe([SUBSCRIBED], T0 - 8_000);
    const subscribed = await addJob(T0 - 1_000, {}, SUBSCRIBED);
    const subscribedRetry = await addJob(T0 - 1_000, { state: "pending_retry" }, SUBSCRIBED);
    const later = await addJob(T0 - 500, {}, UNSUBSCRIBED);
    expect((await f.job(subscribed)).subscribed).toBe(true);
    expect((await f.job(earlier)).subscribed).toBe(false);
    expect(await claim(T0)).toBe(subscribed);
    expect(await claim(T0)).toBe(earlier);
    expect(await claim(T0)).toBe(later);
    expect(await claim(T0)).toBe(subscribedRetry);
    // Judged when the job is queued: a list PUT later changes nothing of a queued job; a redraw judges it again.
    await f.subscribe([UNSUBSCRIBED], T0);
    expect((await f.job(earlier)).subscribed).toBe(false);
    await f.setJob(earlier, { state: "done", leaseId: null });
    const saveOfEarlier = (await f.job(earlier)).saveId!;
    await store.requeueForRedraw(saveOfEarlier, T0);
    expect(await f.job(earlier)).toMatchObject({ state: "pending", subscribed: true });
    // A list nobody PUT for a day counts no more, before any PUT sweeps it, and after.
    await f.subscribe([FORGOTTEN], T0 - 2 * DAY, "gone-bot");
    expect((await f.job(await addJob(T0 - 2 * DAY + 1_000, {}, FORGOTTEN))).subscribed).toBe(true);
    expect((await f.job(await addJob(T0, {}, FORGOTTEN))).subscribed).toBe(false);
    await f.subscribe([SUBSCRIBED], T0);
    expect((await f.job(await addJob(T0 - 2 * DAY + 1_000, {}, FORGOTTEN))).subscribed).toBe(false);
    // A haruki pair (another service's copy, or a player the token may not read) gives no priority.
    await f.subscribe([FORGOTTEN], T0, "harukibot", "haruki");
    expect((await f.job(await addJob(T0, {}, FORGOTTEN))).subscribed).toBe(false);
  });

  test("a report's job carries its report; a row with no single subject fails once and the next job is claimed", async () => {
    const broken = await addJob(T0 - 1_000);
    await f.setJob(broken, { saveId: null });
    const reportId = await s.rows.report(undefined, T0);
    const job = await claimed(T0);
    expect(job).toMatchObject({ stage: "evaluate", subject: { kind: "report", reportId } });
    expect(await f.job(broken)).toMatchObject({ state: "failed", attempts: 1, leaseId: null, lastError: "job has no single subject (save_id xor report_id)" });
    expect(await claim(T0)).toBeNull();
  });

  test("a job waiting for a retry is claimed once its run_at has come, its attempts counted on", async () => {
    const id = await addJob(T0 + 1_000, { state: "pending_retry", attempts: 1 });
    expect(await claim(T0 + 999)).toBeNull();
    expect(await claimed(T0 + 1_000)).toMatchObject({ id, attempts: 2 });
  });

  test("a claimed job is not claimable while its lease holds; once it expired another claim takes it over under a fresh lease", async () => {
    const id = await addJob(T0);
    const holder = await claimed(T0);
    expect(await claim(T0 + LEASE)).toBeNull();
    const taker = await claimed(T0 + LEASE + 1);
    expect(taker.id).toBe(id);
    expect(taker.leaseId).not.toBe(holder.leaseId);
    expect(await f.job(id)).toMatchObject({ state: "running", attempts: 2, leaseId: taker.leaseId, leaseExpiresAt: T0 + 2 * LEASE + 1 });
  });

  test("nextDueAt is the earliest run_at of the jobs waiting (for a retry too), never a failed one's; null when none waits", async () => {
    expect(await store.nextDueAt()).toBeNull();
    await addJob(T0 + 3_000, { state: "pending_retry" });
    await addJob(T0 + 2_000);
    await addJob(T0, { state: "failed" });
    expect(await store.nextDueAt()).toBe(T0 + 2_000);
  });

  test("two claimers on their own connections, racing, never take the same job", async () => {
    const ids = new Set<number>();
    for (let i = 0; i < 60; i++) ids.add(await addJob(T0));
    const other = await f.another();
    const drain = async (claimer: JobStore) => {
      const got: number[] = [];
      for (let job = await claimer.claim(T0, LEASE, false); job; job = await claimer.claim(T0, LEASE, false)) got.push(job.id);
      return got;
    };
    const taken = (await Promise.all([store, store, store, other, other, other].map(drain))).flat();
    expect(taken.length).toBe(ids.size);
    expect(new Set(taken)).toEqual(ids);
  });
});
