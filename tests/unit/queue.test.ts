import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { saves } from "../../src/db/schema.ts";
import { holdsLease, rerunIfFlagged, claimJob, nextDueAt, reclaimOrphans, renewLease, reprocess, resumeWaitingForKey, retryFailed, retryOrFail, transition } from "../../src/db/jobs/index.ts";
import {
  BACKOFF_MS,
  deliveriesOf,
  insertDelivery,
  insertJob,
  insertReport,
  insertSave,
  jobRow,
  LEASE_MS,
  openHarness,
  type Harness,
} from "../helpers/pipeline-harness.ts";
import { holderOf, backoffDelay, LeaseLostError } from "../../src/store/model/jobs.ts";

const T0 = 1_700_000_000_000;
let h: Harness;
beforeEach(() => (h = openHarness()));
afterEach(() => h.close());

describe("claim", () => {
  test("takes the oldest job id first, only when due, and marks it running under a lease", () => {
    const first = insertJob(h.db, { runAt: T0 });
    const second = insertJob(h.db, { runAt: T0 - 5_000 });
    const later = insertJob(h.db, { runAt: T0 + 5_000 });
    for (const state of ["failed", "done", "waiting_for_key"]) insertJob(h.db, { runAt: T0 - 9_000, state });

    const claimed = claimJob(h.db, T0, LEASE_MS)!;
    expect(claimed.id).toBe(first);
    expect(jobRow(h.db, first)).toMatchObject({ state: "running", attempts: 1, lease_id: claimed.leaseId, lease_expires_at: T0 + LEASE_MS });
    expect(claimJob(h.db, T0, LEASE_MS)!.id).toBe(second);
    expect(claimJob(h.db, T0, LEASE_MS)).toBeNull();
    expect(claimJob(h.db, T0 + 5_000, LEASE_MS)!.id).toBe(later);
  });

  test("saves whose bytes cannot be one under the keys come after every other job, retried ones included", () => {
    const junk = Array.from({ length: 5 }, () => insertJob(h.db, { runAt: T0 - 9_000 }));
    for (const id of junk) h.db.$client.query("UPDATE jobs SET implausible = 1 WHERE id = ?").run(id);
    const retried = insertJob(h.db, { runAt: T0 - 1_000, state: "pending_retry" });
    const real = insertJob(h.db, { runAt: T0 });
    expect(claimJob(h.db, T0, LEASE_MS)!.id).toBe(real);
    expect(claimJob(h.db, T0, LEASE_MS)!.id).toBe(retried);
    expect(claimJob(h.db, T0, LEASE_MS, true)).toBeNull(); // while a real save runs, junk waits
    expect(claimJob(h.db, T0, LEASE_MS)).toMatchObject({ id: junk[0]!, implausible: true });
  });

  test("a claim carries its subject: a save job names its save, a report job its report", () => {
    const saveId = insertSave(h.db, T0);
    insertJob(h.db, { saveId, runAt: T0 });
    const reportId = insertReport(h.db, T0);
    insertJob(h.db, { reportId, stage: "evaluate", runAt: T0 });
    expect(claimJob(h.db, T0, LEASE_MS)).toMatchObject({ stage: "generate", notify: true, subject: { kind: "save", saveId } });
    expect(claimJob(h.db, T0, LEASE_MS)).toMatchObject({ stage: "evaluate", subject: { kind: "report", reportId } });
  });

  test("a job without a single subject fails at its claim, and the claim moves on to the next job", () => {
    const { id: orphan } = h.db.$client
      .query("INSERT INTO jobs (stage, state, run_at, created_at, updated_at) VALUES ('generate', 'pending', ?1, ?1, ?1) RETURNING id")
      .get(T0) as { id: number };
    const next = insertJob(h.db, { runAt: T0 });
    expect(claimJob(h.db, T0, LEASE_MS)!.id).toBe(next);
    expect(jobRow(h.db, orphan)).toMatchObject({ state: "failed", attempts: 1, last_error: "job has no single subject (save_id xor report_id)", lease_id: null });
    expect(claimJob(h.db, T0, LEASE_MS)).toBeNull();
  });

  test("a pending_retry job is claimed once its run_at has come", () => {
    const id = insertJob(h.db, { runAt: T0 + 1_000, state: "pending_retry", attempts: 1 });
    expect(claimJob(h.db, T0 + 999, LEASE_MS)).toBeNull();
    expect(claimJob(h.db, T0 + 1_000, LEASE_MS)).toMatchObject({ id, attempts: 2 });
  });

  test("a claimed job is not claimable while its lease holds; once it expired another claim takes it over", () => {
    const id = insertJob(h.db, { runAt: T0 });
    const holder = claimJob(h.db, T0, LEASE_MS)!;
    expect(claimJob(h.db, T0 + LEASE_MS, LEASE_MS)).toBeNull();
    const taker = claimJob(h.db, T0 + LEASE_MS + 1, LEASE_MS)!;
    expect(taker.id).toBe(id);
    expect(taker.leaseId).not.toBe(holder.leaseId);
    expect(jobRow(h.db, id)).toMatchObject({ state: "running", attempts: 2, lease_id: taker.leaseId, lease_expires_at: T0 + 2 * LEASE_MS + 1 });
  });
});

describe("fencing", () => {
  test("after a takeover the old holder's transition throws LeaseLostError and its transaction changes nothing", () => {
    const saveId = insertSave(h.db, T0);
    const id = insertJob(h.db, { saveId, runAt: T0 });
    const holder = claimJob(h.db, T0, LEASE_MS)!;
    const taker = claimJob(h.db, T0 + LEASE_MS + 1, LEASE_MS)!;
    const before = jobRow(h.db, id);

    expect(() =>
      h.db.transaction((tx) => {
        // A stage's writes share the transaction with its transition: both roll back.
        tx.update(saves).set({ playerId: "overwritten" }).where(eq(saves.id, saveId)).run();
        transition(tx, holder, { stage: "archive", state: "pending", attempts: 0 }, T0 + LEASE_MS + 2);
      }),
    ).toThrow(LeaseLostError);
    expect(jobRow(h.db, id)).toEqual(before);
    expect(h.db.$client.query("SELECT player_id FROM saves WHERE id = ?").get(saveId)).toEqual({ player_id: "1234567890123456789" });

    expect(renewLease(h.db, holderOf(holder), T0 + LEASE_MS + 3, LEASE_MS)).toBe(false);
    expect(renewLease(h.db, holderOf(taker), T0 + LEASE_MS + 3, LEASE_MS)).toBe(true);
    expect(jobRow(h.db, id).lease_expires_at).toBe(T0 + 2 * LEASE_MS + 3);
  });

  test("the holder's transition clears the lease; renewing afterwards is refused", () => {
    const id = insertJob(h.db, { runAt: T0 });
    const holder = claimJob(h.db, T0, LEASE_MS)!;
    expect(renewLease(h.db, holderOf(holder), T0 + 10, LEASE_MS)).toBe(true);
    h.db.transaction((tx) => transition(tx, holder, { stage: "archive", state: "pending", attempts: 0 }, T0 + 20));
    expect(jobRow(h.db, id)).toMatchObject({ stage: "archive", state: "pending", lease_id: null, lease_expires_at: null });
    expect(renewLease(h.db, holderOf(holder), T0 + 30, LEASE_MS)).toBe(false);
    expect(() => h.db.transaction((tx) => transition(tx, holder, { state: "failed" }, T0 + 40))).toThrow(LeaseLostError);
  });

  test("one lease predicate: once the lease expired, even unclaimed, the holder can neither renew nor record a stage", () => {
    const id = insertJob(h.db, { runAt: T0 });
    const holder = claimJob(h.db, T0, LEASE_MS)!;
    const expired = T0 + LEASE_MS;
    const before = jobRow(h.db, id);
    expect(holdsLease(h.db, holderOf(holder), expired - 1)).toBe(true);
    expect(holdsLease(h.db, holderOf(holder), expired)).toBe(false);
    expect(() => h.db.transaction((tx) => transition(tx, holder, { stage: "notify", state: "pending" }, expired))).toThrow(LeaseLostError);
    expect(() => h.db.transaction((tx) => rerunIfFlagged(tx, holder, expired))).toThrow(LeaseLostError);
    expect(renewLease(h.db, holderOf(holder), expired, LEASE_MS)).toBe(false);
    expect(jobRow(h.db, id)).toEqual(before);
  });
});

describe("start-up", () => {
  test("reclaimOrphans makes every running job due at once, even under a lease that has not expired", () => {
    const orphan = insertJob(h.db, { runAt: T0 - 60_000, state: "running", attempts: 2, leaseId: "dead-process", leaseExpiresAt: T0 + LEASE_MS });
    const waiting = insertJob(h.db, { runAt: T0 + 60_000, state: "pending_retry", attempts: 1 });
    expect(claimJob(h.db, T0, LEASE_MS)).toBeNull();

    expect(reclaimOrphans(h.db, T0)).toBe(1);
    expect(jobRow(h.db, orphan)).toMatchObject({ state: "pending", run_at: T0, lease_id: null, lease_expires_at: null, attempts: 1, process_deaths: 1 });
    expect(jobRow(h.db, waiting)).toMatchObject({ state: "pending_retry", run_at: T0 + 60_000 });
    expect(claimJob(h.db, T0, LEASE_MS)).toMatchObject({ id: orphan, attempts: 2 });
  });

  test("resumeWaitingForKey puts jobs that waited for a key back in the queue with a fresh budget", () => {
    const parked = insertJob(h.db, { runAt: T0 - 60_000, state: "waiting_for_key", attempts: 1 });
    const failed = insertJob(h.db, { runAt: T0 - 60_000, state: "failed", attempts: 3 });
    expect(resumeWaitingForKey(h.db, T0)).toBe(1);
    expect(jobRow(h.db, parked)).toMatchObject({ state: "pending", run_at: T0, attempts: 0 });
    expect(jobRow(h.db, failed).state).toBe("failed");
  });
});

describe("backoff", () => {
  test("each step is jittered within ±20 %, and there is no delay past the last step", () => {
    expect(backoffDelay(1, BACKOFF_MS, () => 0)).toBe(800);
    expect(backoffDelay(1, BACKOFF_MS, () => 0.5)).toBe(1_000);
    expect(backoffDelay(1, BACKOFF_MS, () => 0.999_999)).toBe(1_200);
    expect(backoffDelay(2, BACKOFF_MS, () => 0)).toBe(1_600);
    expect(backoffDelay(2, BACKOFF_MS, () => 0.999_999)).toBe(2_400);
    expect(backoffDelay(3, BACKOFF_MS, () => 0.5)).toBeNull();
  });

  test("retryOrFail schedules the next attempt within the jitter bounds, then fails with the last error", () => {
    const id = insertJob(h.db, { runAt: T0 });
    const first = claimJob(h.db, T0, LEASE_MS)!;
    expect(h.db.transaction((tx) => retryOrFail(tx, first, "boom 1", BACKOFF_MS, T0))).toBe("retry");
    const retried = jobRow(h.db, id);
    expect(retried).toMatchObject({ state: "pending_retry", last_error: "boom 1", lease_id: null, attempts: 1 });
    expect(retried.run_at).toBeGreaterThanOrEqual(T0 + 800);
    expect(retried.run_at).toBeLessThanOrEqual(T0 + 1_200);

    const second = claimJob(h.db, retried.run_at, LEASE_MS)!;
    expect(h.db.transaction((tx) => retryOrFail(tx, second, "boom 2", BACKOFF_MS, retried.run_at))).toBe("retry");
    const third = claimJob(h.db, jobRow(h.db, id).run_at, LEASE_MS)!;
    expect(third.attempts).toBe(BACKOFF_MS.length + 1);
    expect(h.db.transaction((tx) => retryOrFail(tx, third, "boom 3", BACKOFF_MS, T0 + 10_000))).toBe("failed");
    expect(jobRow(h.db, id)).toMatchObject({ state: "failed", last_error: "boom 3", attempts: 3, lease_id: null });
    expect(claimJob(h.db, T0 + 1_000_000, LEASE_MS)).toBeNull();
  });

  test("nextDueAt is the earliest run_at of waiting jobs, null when none waits", () => {
    expect(nextDueAt(h.db)).toBeNull();
    insertJob(h.db, { runAt: T0 + 3_000, state: "pending_retry" });
    insertJob(h.db, { runAt: T0 + 2_000 });
    insertJob(h.db, { runAt: T0, state: "failed" });
    expect(nextDueAt(h.db)).toBe(T0 + 2_000);
  });
});

describe("owner operations", () => {
  test("retryFailed restarts failed jobs at their stage and re-sends only failed deliveries of finished saves", () => {
    const broken = insertJob(h.db, { runAt: T0, stage: "archive", state: "failed", attempts: 3 });
    const finishedSave = insertSave(h.db, T0);
    const finished = insertJob(h.db, { saveId: finishedSave, runAt: T0, stage: "done", state: "done", notify: false });
    const sent = insertDelivery(h.db, finishedSave, "sent", T0, "telegram");
    const failedDelivery = insertDelivery(h.db, finishedSave, "failed", T0, "discord");
    const untouchedSave = insertSave(h.db, T0);
    const untouched = insertJob(h.db, { saveId: untouchedSave, runAt: T0, stage: "done", state: "done" });
    insertDelivery(h.db, untouchedSave, "sent", T0);

    expect(retryFailed(h.db, T0 + 100)).toEqual({ jobs: 1, deliveries: 1 });
    expect(jobRow(h.db, broken)).toMatchObject({ stage: "archive", state: "pending", attempts: 0, last_error: null, run_at: T0 + 100 });
    expect(jobRow(h.db, finished)).toMatchObject({ stage: "notify", state: "pending", attempts: 0, notify: 1, run_at: T0 + 100 });
    expect(jobRow(h.db, untouched)).toMatchObject({ stage: "done", state: "done" });
    const rows = deliveriesOf(h.db, finishedSave);
    expect(rows.find((row) => row.id === sent)).toMatchObject({ state: "sent", attempts: 3 });
    expect(rows.find((row) => row.id === failedDelivery)).toMatchObject({ state: "pending", attempts: 0, last_error: null, next_attempt_at: T0 + 100 });
  });

  test("retryFailed for one save leaves the others failed", () => {
    const mine = insertSave(h.db, T0);
    const mineJob = insertJob(h.db, { saveId: mine, runAt: T0, state: "failed" });
    const other = insertSave(h.db, T0);
    const otherJob = insertJob(h.db, { saveId: other, runAt: T0, state: "done", stage: "done" });
    insertDelivery(h.db, other, "failed", T0);

    expect(retryFailed(h.db, T0 + 100, mine)).toEqual({ jobs: 1, deliveries: 0 });
    expect(jobRow(h.db, mineJob).state).toBe("pending");
    expect(jobRow(h.db, otherJob).state).toBe("done");
    expect(deliveriesOf(h.db, other)[0]!.state).toBe("failed");
  });

  test("reprocess runs every stage again; with notify the deliveries start over, without it they stay", () => {
    const saveId = insertSave(h.db, T0);
    const id = insertJob(h.db, { saveId, runAt: T0, stage: "done", state: "done", attempts: 2 });
    insertDelivery(h.db, saveId, "sent", T0);

    expect(reprocess(h.db, saveId, false, T0 + 100)).toBe(true);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "generate", state: "pending", attempts: 0, notify: 0, force_push: 0, run_at: T0 + 100 });
    expect(deliveriesOf(h.db, saveId)).toHaveLength(1);

    expect(reprocess(h.db, saveId, true, T0 + 200)).toBe(true);
    expect(jobRow(h.db, id)).toMatchObject({ stage: "generate", notify: 1, force_push: 1 });
    expect(deliveriesOf(h.db, saveId)).toHaveLength(0);
  });

  test("reprocess refuses a running job and changes nothing", () => {
    const saveId = insertSave(h.db, T0);
    const id = insertJob(h.db, { saveId, runAt: T0, stage: "archive" });
    insertDelivery(h.db, saveId, "sent", T0);
    claimJob(h.db, T0, LEASE_MS);
    const before = jobRow(h.db, id);

    expect(reprocess(h.db, saveId, true, T0 + 100)).toBe(false);
    expect(jobRow(h.db, id)).toEqual(before);
    expect(deliveriesOf(h.db, saveId)).toHaveLength(1);
  });
});
