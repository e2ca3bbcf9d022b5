/**
 * The job store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL: the fenced
 * lease, retries and parking, the start-up reclaim and the release at a clean stop.
 */
import { beforeEach, expect, test } from "bun:test";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import { advanceChange, holderOf, LeaseLostError, POISON_CRASHES, retryChange, taskProcessDiedChange } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { BACKOFF, jobStoreFixture, LEASE, T0 } from "../helpers/job-store-contract.ts";

describeEachStore("job store", (s) => {
  let store: JobStore;
  beforeEach(() => void (store = s.stores.jobs));
  const { reclaimsLiveLeases, f, addJob, claim, claimed } = jobStoreFixture(s);

  test("an expired lease is not held, even before anyone claims the job: no renewal, no transition", async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.holds(holderOf(job), T0 + LEASE - 1)).toBe(true);
    expect(await store.holds(holderOf(job), T0 + LEASE)).toBe(false);
    expect(await store.renew(holderOf(job), T0 + LEASE, LEASE)).toBe(false);
    await expect(store.record(job, advanceChange("notify", T0 + LEASE), T0 + LEASE)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await f.job(id)).toMatchObject({ state: "running", stage: "generate", leaseId: job.leaseId, leaseExpiresAt: T0 + LEASE });
  });

  test("the holder's recorded move clears its lease: renewing or recording again afterwards is refused", async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.renew(holderOf(job), T0 + 10, LEASE)).toBe(true);
    expect(await store.record(job, advanceChange("archive", T0 + 20), T0 + 20)).toBe("recorded");
    expect(await f.job(id)).toMatchObject({ stage: "archive", state: "pending", leaseId: null, leaseExpiresAt: null });
    expect(await store.holds(holderOf(job), T0 + 30)).toBe(false);
    expect(await store.renew(holderOf(job), T0 + 30, LEASE)).toBe(false);
    await expect(store.transition(job, { state: "failed" }, T0 + 40)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await f.job(id)).state).toBe("pending");
  });

  test("renew extends a held lease, and only a held one", async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.renew(holderOf(job), T0 + 1_000, LEASE)).toBe(true);
    expect((await f.job(id)).leaseExpiresAt).toBe(T0 + 1_000 + LEASE);
    expect(await store.renew({ jobId: id, leaseId: crypto.randomUUID() }, T0 + 2_000, LEASE)).toBe(false);
    expect((await f.job(id)).leaseExpiresAt).toBe(T0 + 1_000 + LEASE);
  });

  test("a stale holder, its lease claimed again, changes nothing; the new holder moves the job on", async () => {
    const id = await addJob(T0);
    const stale = await claimed(T0);
    const fresh = await claimed(T0 + LEASE + 1);
    expect(fresh).toMatchObject({ id, attempts: 2 });
    expect(fresh.leaseId).not.toBe(stale.leaseId);
    const now = T0 + LEASE + 2;
    expect(await store.holds(holderOf(stale), now)).toBe(false);
    await expect(store.record(stale, advanceChange("notify", now), now)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(store.record(stale, retryChange(stale, "boom", BACKOFF, now), now)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(store.transition(stale, { state: "failed", lastError: "stale" }, now)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await f.job(id)).toMatchObject({ state: "running", stage: "generate", leaseId: fresh.leaseId, lastError: null });
    expect(await store.record(fresh, advanceChange("notify", now), now)).toBe("recorded");
    expect(await f.job(id)).toMatchObject({ state: "pending", stage: "notify", attempts: 0, leaseId: null, leaseExpiresAt: null, runAt: now });
  });

  test("a failed attempt waits its backoff step (±20 %), then the next; past the last step it fails", async () => {
    const id = await addJob(T0);
    let now = T0;
    for (const step of BACKOFF) {
      const job = await claimed(now);
      await store.record(job, retryChange(job, `boom ${job.attempts}`, BACKOFF, now), now);
      const row = await f.job(id);
      expect(row).toMatchObject({ state: "pending_retry", lastError: `boom ${job.attempts}`, leaseId: null });
      expect(row.runAt).toBeGreaterThanOrEqual(now + step * 0.8);
      expect(row.runAt).toBeLessThanOrEqual(now + step * 1.2);
      expect(await claim(row.runAt - 1)).toBeNull();
      now = row.runAt;
    }
    const last = await claimed(now);
    expect(last.attempts).toBe(3);
    await store.record(last, retryChange(last, "boom 3", BACKOFF, now), now);
    expect(await f.job(id)).toMatchObject({ state: "failed", lastError: "boom 3" });
    expect(await claim(now + 60_000)).toBeNull();
  });

  test(`a job whose task process dies ${POISON_CRASHES} times in a row is parked; the attempt is not counted`, async () => {
    const id = await addJob(T0);
    for (let crash = 1; crash <= POISON_CRASHES; crash++) {
      const job = await claimed(T0);
      expect(job.crashes).toBe(crash - 1);
      await store.record(job, taskProcessDiedChange(job, "SIGSEGV", T0), T0);
      expect(await f.job(id)).toMatchObject({ state: crash < POISON_CRASHES ? "pending" : "failed", attempts: 0, crashes: crash, processDeaths: 1 });
    }
  });

  test("at start-up a job whose holder died and whose lease expired is due at once, the attempt refunded, its tasks isolated", async () => {
    const id = await addJob(T0);
    await claimed(T0);
    const start = T0 + LEASE + 1;
    expect(await store.reclaimAtStart(start)).toBe(1);
    expect(await f.job(id)).toMatchObject({ state: "pending", attempts: 0, processDeaths: 1, leaseId: null, runAt: start });
    expect(await claimed(start)).toMatchObject({ id, attempts: 1, isolated: true });
  });

  test("the start-up reclaim leaves jobs that wait alone: a retry keeps its run_at, a parked or failed job its state", async () => {
    const retry = await addJob(T0 + 60_000, { state: "pending_retry", attempts: 1 });
    const parked = await addJob(T0 - 60_000, { state: "waiting_for_key", attempts: 1 });
    const failed = await addJob(T0 - 60_000, { state: "failed", attempts: 3 });
    expect(await store.reclaimAtStart(T0 + 1_000)).toBe(0);
    expect(await f.job(retry)).toMatchObject({ state: "pending_retry", runAt: T0 + 60_000, attempts: 1, processDeaths: 0 });
    expect(await f.job(parked)).toMatchObject({ state: "waiting_for_key", attempts: 1 });
    expect(await f.job(failed)).toMatchObject({ state: "failed", attempts: 3 });
    expect(await claim(T0 + 1_000)).toBeNull();
  });

  test(`at start-up a live lease is ${reclaimsLiveLeases ? "reclaimed too (one process per file)" : "left to its holder (other processes run)"}`, async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.reclaimAtStart(T0 + 1)).toBe(reclaimsLiveLeases ? 1 : 0);
    expect(await store.holds(holderOf(job), T0 + 2)).toBe(!reclaimsLiveLeases);
    expect((await f.job(id)).state).toBe(reclaimsLiveLeases ? "pending" : "running");
  });

  test(`at a clean stop running jobs are ${reclaimsLiveLeases ? "released to the queue (this process held them all)" : "left to their leases (other processes may hold them)"}`, async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.releaseAtStop(T0 + 10)).toBe(reclaimsLiveLeases ? 1 : 0);
    expect(await f.job(id)).toMatchObject(reclaimsLiveLeases ? { state: "pending", leaseId: null, attempts: 0 } : { state: "running", leaseId: job.leaseId });
  });
});
