/** The deliveries module's rules on a temp SQLite: creation per routed target, the lease-fenced claim, results, owner retry and resend. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  claimDeliveryAttempt,
  createDeliveries,
  deliveryTally,
  dueDeliveries,
  markAttemptFailed,
  markSent,
  recordPartsSent,
} from "../../src/db/deliveries/rows.ts";
import type { Channel, ChannelTarget } from "../../src/notify/routing.ts";
import { claimJob } from "../../src/db/jobs/index.ts";
import { sqliteTransaction } from "../../src/db/dialect/sqlite.ts";
import { resetDeliveries, retryFailedDeliveries } from "../../src/db/deliveries/owner-actions.ts";
import { deliveriesOf, insertDelivery, insertJob, insertSave, jobRow, LEASE_MS, openHarness, type Harness } from "../helpers/pipeline-harness.ts";
import type { LeaseHolder } from "../../src/store/model/jobs.ts";

const T0 = 1_700_000_000_000;
let h: Harness;
beforeEach(() => (h = openHarness()));
afterEach(() => h.close());

const ALL: ReadonlySet<Channel> = new Set(["telegram", "bark", "discord", "onebot", "webhook"]);
const row = (id: number) => h.db.$client.query("SELECT * FROM deliveries WHERE id = ?").get(id) as Record<string, unknown>;
const byTarget = (saveId: number) =>
  Object.fromEntries(
    (h.db.$client.query("SELECT channel, target, state, last_error FROM deliveries WHERE save_id = ?").all(saveId) as Record<string, string | null>[]).map((r) => [
      `${r.channel}/${r.target}`,
      { state: r.state, lastError: r.last_error },
    ]),
  );

/** A save whose job is claimed at `at` (lease until `at + LEASE_MS`) with one pending delivery. */
function heldDelivery(at = T0): { saveId: number; jobId: number; holder: LeaseHolder; deliveryId: number } {
  const saveId = insertSave(h.db, at);
  const jobId = insertJob(h.db, { saveId, runAt: at, stage: "notify" });
  const job = claimJob(h.db, at, LEASE_MS)!;
  return { saveId, jobId, holder: { jobId: job.id, leaseId: job.leaseId }, deliveryId: insertDelivery(h.db, saveId, "pending", at) };
}

describe("create", () => {
  test("one row per routed target: pending when sendable, skipped with the reason when the target has a problem or its channel is not configured", () => {
    const saveId = insertSave(h.db, T0);
    const targets: ChannelTarget[] = [
      { channel: "telegram", target: "default" },
      { channel: "bark", target: "ghost", problem: 'Bark alias "ghost" is not in bark_map.json' },
      { channel: "discord", target: "default" },
    ];
    h.db.transaction((tx) => createDeliveries(tx, saveId, targets, new Set<Channel>(["telegram", "bark"]), T0));
    expect(byTarget(saveId)).toEqual({
      "telegram/default": { state: "pending", lastError: null },
      "bark/ghost": { state: "skipped", lastError: 'Bark alias "ghost" is not in bark_map.json' },
      "discord/default": { state: "skipped", lastError: "channel discord is not configured" },
    });
    expect(dueDeliveries(h.db, saveId, T0).map((d) => d.channel)).toEqual(["telegram"]);
  });

  test("a second run keeps the rows it finds (a sent one stays sent) and skips pending targets no longer routed", () => {
    const saveId = insertSave(h.db, T0);
    h.db.transaction((tx) => createDeliveries(tx, saveId, [{ channel: "telegram", target: "default" }, { channel: "bark", target: "old" }, { channel: "webhook", target: "default" }], ALL, T0));
    const [telegram] = deliveriesOf(h.db, saveId);
    markSent(h.db, telegram!.id, T0 + 1);

    h.db.transaction((tx) => createDeliveries(tx, saveId, [{ channel: "telegram", target: "default" }, { channel: "bark", target: "new" }], ALL, T0 + 2));
    expect(byTarget(saveId)).toEqual({
      "telegram/default": { state: "sent", lastError: null },
      "bark/old": { state: "skipped", lastError: "no longer routed to this player" },
      "webhook/default": { state: "skipped", lastError: "no longer routed to this player" },
      "bark/new": { state: "pending", lastError: null },
    });
  });

  test("due means pending and at or past its next attempt", () => {
    const saveId = insertSave(h.db, T0);
    const now = insertDelivery(h.db, saveId, "pending", T0, "telegram");
    insertDelivery(h.db, saveId, "pending", T0 + 1, "discord");
    insertDelivery(h.db, saveId, "failed", T0, "webhook");
    expect(dueDeliveries(h.db, saveId, T0).map((d) => d.id)).toEqual([now]);
    expect(dueDeliveries(h.db, saveId, T0 + 1)).toHaveLength(2);
  });
});

describe("the fenced claim", () => {
  test("only the current lease holder claims the attempt, once, and the claim extends its lease", () => {
    const { jobId, holder, deliveryId } = heldDelivery();
    const taker = claimJob(h.db, T0 + LEASE_MS + 1, LEASE_MS)!;
    const current = { jobId: taker.id, leaseId: taker.leaseId };
    const now = T0 + LEASE_MS + 2;

    expect(claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 0 }, now, LEASE_MS)).toBe("lease_lost");
    expect(row(deliveryId).attempts).toBe(0);
    expect(claimDeliveryAttempt(h.db, current, { id: deliveryId, seenAttempts: 0 }, now, LEASE_MS)).toBe("claimed");
    expect(row(deliveryId).attempts).toBe(1);
    expect(jobRow(h.db, jobId).lease_expires_at).toBe(now + LEASE_MS);
    expect(claimDeliveryAttempt(h.db, current, { id: deliveryId, seenAttempts: 0 }, now, LEASE_MS)).toBe("taken");
  });

  test("an expired lease claims nothing even before anyone took the job over; a settled delivery is taken", () => {
    const { holder, deliveryId } = heldDelivery();
    expect(claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 0 }, T0 + LEASE_MS, LEASE_MS)).toBe("lease_lost");
    markSent(h.db, deliveryId, T0 + 1);
    expect(claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 0 }, T0 + 2, LEASE_MS)).toBe("taken");
    expect(row(deliveryId)).toMatchObject({ state: "sent", attempts: 0 });
  });

  test("parts answered are always recorded (never lowered); the next part may go only under the lease", () => {
    const { jobId, holder, deliveryId } = heldDelivery();
    expect(recordPartsSent(h.db, holder, deliveryId, 2, T0 + 10, LEASE_MS)).toBe(true);
    expect(jobRow(h.db, jobId).lease_expires_at).toBe(T0 + 10 + LEASE_MS);
    expect(recordPartsSent(h.db, holder, deliveryId, 1, T0 + 20, LEASE_MS)).toBe(true);
    expect(row(deliveryId).parts_sent).toBe(2);
    expect(recordPartsSent(h.db, holder, deliveryId, 3, T0 + 20 + LEASE_MS, LEASE_MS)).toBe(false);
    expect(row(deliveryId).parts_sent).toBe(3);
  });
});

describe("results", () => {
  test("sent records the time and clears the error", () => {
    const { deliveryId } = heldDelivery();
    h.db.$client.query("UPDATE deliveries SET last_error = 'HTTP 500' WHERE id = ?").run(deliveryId);
    markSent(h.db, deliveryId, T0 + 5);
    expect(row(deliveryId)).toMatchObject({ state: "sent", sent_at: T0 + 5, last_error: null });
  });

  test("a failed attempt goes back to pending until its retry time, or fails for good without one", () => {
    const { saveId, holder, deliveryId } = heldDelivery();
    expect(claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 0 }, T0 + 1, LEASE_MS)).toBe("claimed");
    markAttemptFailed(h.db, { deliveryId, attempt: 1 }, "HTTP 502", T0 + 1_000);
    expect(row(deliveryId)).toMatchObject({ state: "pending", attempts: 1, last_error: "HTTP 502", next_attempt_at: T0 + 1_000 });
    expect(dueDeliveries(h.db, saveId, T0 + 999)).toHaveLength(0);
    expect(deliveryTally(h.db, saveId)).toEqual({ sent: 0, failed: 0, skipped: 0, pending: 1, nextAttemptAt: T0 + 1_000 });

    expect(claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 1 }, T0 + 1_000, LEASE_MS)).toBe("claimed");
    markAttemptFailed(h.db, { deliveryId, attempt: 2 }, "HTTP 403", null);
    expect(row(deliveryId)).toMatchObject({ state: "failed", attempts: 2, last_error: "HTTP 403" });
    expect(deliveryTally(h.db, saveId)).toEqual({ sent: 0, failed: 1, skipped: 0, pending: 0, nextAttemptAt: null });
  });

  test("a failure recorded for an attempt the row has moved past changes nothing", () => {
    const { holder, deliveryId } = heldDelivery();
    claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 0 }, T0 + 1, LEASE_MS);
    claimDeliveryAttempt(h.db, holder, { id: deliveryId, seenAttempts: 1 }, T0 + 2, LEASE_MS);
    const before = row(deliveryId);
    markAttemptFailed(h.db, { deliveryId, attempt: 1 }, "late answer", null);
    expect(row(deliveryId)).toEqual(before);
  });

  test("the tally counts every state and takes the earliest pending attempt", () => {
    const saveId = insertSave(h.db, T0);
    insertDelivery(h.db, saveId, "sent", T0, "telegram");
    insertDelivery(h.db, saveId, "skipped", T0, "bark");
    insertDelivery(h.db, saveId, "pending", T0 + 7, "discord");
    insertDelivery(h.db, saveId, "pending", T0 + 3, "onebot");
    expect(deliveryTally(h.db, saveId)).toEqual({ sent: 1, failed: 0, skipped: 1, pending: 2, nextAttemptAt: T0 + 3 });
  });
});

describe("owner operations", () => {
  test("retry makes failed deliveries due now with a fresh budget and names their saves; others stay", () => {
    const one = insertSave(h.db, T0);
    const two = insertSave(h.db, T0);
    const failedOne = insertDelivery(h.db, one, "failed", T0, "telegram");
    const sentOne = insertDelivery(h.db, one, "sent", T0, "discord");
    const failedTwo = insertDelivery(h.db, two, "failed", T0, "webhook");

    expect(sqliteTransaction(h.db, retryFailedDeliveries(T0 + 100, two))).toEqual([two]);
    expect(row(failedTwo)).toMatchObject({ state: "pending", attempts: 0, next_attempt_at: T0 + 100, last_error: null });
    expect(row(failedOne).state).toBe("failed");

    expect(sqliteTransaction(h.db, retryFailedDeliveries(T0 + 200))).toEqual([one]);
    expect(row(failedOne)).toMatchObject({ state: "pending", attempts: 0, next_attempt_at: T0 + 200, last_error: null });
    expect(row(sentOne)).toMatchObject({ state: "sent", attempts: 3 });
  });

  test("reset removes a save's deliveries, so the next notify sends to every target again", () => {
    const mine = insertSave(h.db, T0);
    const other = insertSave(h.db, T0);
    insertDelivery(h.db, mine, "sent", T0, "telegram");
    insertDelivery(h.db, mine, "failed", T0, "discord");
    insertDelivery(h.db, other, "sent", T0);
    sqliteTransaction(h.db, resetDeliveries(mine));
    expect(deliveriesOf(h.db, mine)).toHaveLength(0);
    expect(deliveriesOf(h.db, other)).toHaveLength(1);

    h.db.transaction((tx) => createDeliveries(tx, mine, [{ channel: "telegram", target: "default" }], ALL, T0 + 1));
    expect(deliveriesOf(h.db, mine)).toMatchObject([{ channel: "telegram", state: "pending", attempts: 0 }]);
  });
});
