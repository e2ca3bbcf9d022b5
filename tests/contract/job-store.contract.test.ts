/**
 * The job store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. Claim
 * order as SQLite has always done it, exclusive claims, the fenced lease, retries, the start-up reclaim and the
 * owner's retry and reprocess. (The backoff's jitter, a pure function, is in queue.test.ts.)
 */
import { beforeEach, expect, test } from "bun:test";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import { advanceChange, holderOf, LeaseLostError, POISON_CRASHES, retryChange, taskProcessDiedChange, type ClaimedJob, type JobRow } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const T0 = 1_700_000_000_000;
const LEASE = 60_000;
const BACKOFF = [1_000, 2_000];
const SUBSCRIBED = "7485938820123456789";
const UNSUBSCRIBED = "9007199254740993123";
const FORGOTTEN = "1000000000000000001";
const DAY = 24 * 3600_000;

describeEachStore("job store", (s) => {
  let store: JobStore;
  beforeEach(() => void (store = s.stores.jobs));
  /** One process per SQLite file: every running job is its holder's orphan at start-up, not only expired ones. */
  const reclaimsLiveLeases = !s.hub;
  const f = {
    job: (id: number) => s.jobRows.job(id),
    jobOfSave: (saveId: number) => s.jobRows.jobOfSave(saveId),
    setJob: (id: number, fields: Partial<JobRow>) => s.jobRows.set(id, fields),
    another: async () => (await s.another()).jobs,
    /** A bot's `/msr` list naming these players, as PUT update_msr_sub stores it (`haruki`: another service's copy). */
    subscribe: (playerIds: string[], at: number, tokenName = "bot", mode = "latest") => s.stores.dataReads.subscribe(tokenName, "jp", { pairs: playerIds.map((uid) => ({ uid, mode })), peer: "127.0.0.1", bytes: 100 } as never, at),
    /** A save whose job retention deleted (the job written by SQL: no port deletes one alone). */
    saveWithoutJob: async (at: number) => {
      const saveId = await s.rows.save({ at });
      await s.stored.dropJobOfSave(saveId);
      return saveId;
    },
    /** A delivery of the save to `target` in `state`, as the notify stage leaves it after three tries (no port writes one without its job's lease). */
    addDelivery: (saveId: number, target: string, state: "pending" | "sent" | "failed", at: number) =>
      s.sql.insert("deliveries", {
        saveId,
        channel: "bark",
        target,
        state,
        attempts: state === "pending" ? 0 : 3,
        nextAttemptAt: at,
        lastError: state === "failed" ? "HTTP 500" : null,
        sentAt: state === "sent" ? at : null,
        createdAt: at,
      }),
    deliveriesOf: async (saveId: number) => (await s.stores.deliveries.ofSave(saveId)).sort((a, b) => a.target.localeCompare(b.target)),
  };

  /** A save's job, enqueued as an upload does, then given `fields` directly; returns its id. */
  const addJob = async (runAt: number, fields: Partial<JobRow> = {}, playerId?: string) => {
    const saveId = await s.rows.save({ at: runAt, playerId, implausible: fields.implausible ?? false });
    const { id } = await f.jobOfSave(saveId);
    if (Object.keys(fields).length > 0) await f.setJob(id, fields);
    return id;
  };
  const claim = async (now: number, plausibleOnly = false) => (await store.claim(now, LEASE, plausibleOnly))?.id ?? null;
  const claimed = async (now: number): Promise<ClaimedJob> => {
    const job = await store.claim(now, LEASE, false);
    if (!job) throw new Error("nothing claimed");
    return job;
  };

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

  test(`at a clean stop running jobs are ${reclaimsLiveLeases ? "released to the queue (this process held them all)" : "left to their leases (other processes may hold them)"}`, async () => {
    const id = await addJob(T0);
    const job = await claimed(T0);
    expect(await store.releaseAtStop(T0 + 10)).toBe(reclaimsLiveLeases ? 1 : 0);
    expect(await f.job(id)).toMatchObject(reclaimsLiveLeases ? { state: "pending", leaseId: null, attempts: 0 } : { state: "running", leaseId: job.leaseId });
  });
});
