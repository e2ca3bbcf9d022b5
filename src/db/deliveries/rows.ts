/**
 * Deliveries: one row per (save, channel, target), each attempted alone so a failing channel is retried by
 * itself and a channel already sent is never sent again. Every read and write of the table lives in this folder,
 * written once for both stores (src/db/dialect/), but for the retention sweep's bulk delete and the status page's
 * day counts. An attempt is claimed only while the job's lease is ours, `running` and unexpired (extended first, and
 * checked again in the claim's own statement: src/db/jobs/statements.ts leaseHeld), and each further part only after
 * the lease was extended: a runner whose lease expired or was taken over sends nothing more.
 */
import { read, run, type Flow } from "../dialect/statements.ts";
import { rowOf } from "../dialect/rows.ts";
import { holdsLease, renewLease } from "../jobs/queue.ts";
import { leaseHeld } from "../jobs/statements.ts";
import { deliveries } from "../schema.ts";
import { DATA_WEBHOOK_CHANNEL, tallyOf, type ClaimOutcome, type Delivery, type DeliveryTally, type FailedAttempt, type RoutedTarget } from "../../store/model/deliveries.ts";
import type { LeaseHolder } from "../../store/model/jobs.ts";

/** A delivery's every column under its model name (a new column of the schema comes with it). */
const DELIVERY = rowOf<Delivery>(deliveries, "d");

/** The row a routed target gets (as the push decision's JSON list): skipped with the reason when it cannot be sent to, else pending. */
export function routedRow(target: RoutedTarget, configured: ReadonlySet<string>) {
  const problem = target.problem ?? (configured.has(target.channel) ? undefined : `channel ${target.channel} is not configured`);
  const state: Delivery["state"] = problem ? "skipped" : "pending";
  return { channel: target.channel, target: target.target, state, last_error: problem ?? null };
}

const OF_SAVE = read<Delivery>(`SELECT ${DELIVERY.columns} FROM deliveries d WHERE d.save_id = $1 ORDER BY d.id`, DELIVERY.kinds);
const TALLY = read<Pick<Delivery, "state" | "nextAttemptAt">>(`SELECT state, next_attempt_at AS "nextAttemptAt" FROM deliveries WHERE save_id = $1`, { nextAttemptAt: "int" });
const ADD_HOOKS = read(
  `INSERT INTO deliveries (save_id, channel, target, state, next_attempt_at, created_at)
   SELECT $1, $2, CAST(id AS TEXT), 'pending', $3, $3 FROM data_webhooks WHERE true ON CONFLICT DO NOTHING`,
);
const SKIP_REMOVED_HOOKS = read(
  `UPDATE deliveries SET state = 'skipped', last_error = 'data webhook removed'
   WHERE save_id = $1 AND channel = $2 AND state = 'pending' AND target NOT IN (SELECT CAST(id AS TEXT) FROM data_webhooks)`,
);
/** Fenced by the lease in the same statement: a runner that stalls past its lease between renewing and claiming sends nothing. */
const CLAIM_ATTEMPT = read<{ id: number }>(
  `UPDATE deliveries SET attempts = $3 WHERE id = $1 AND state = 'pending' AND attempts = $2 AND EXISTS (SELECT 1 FROM jobs WHERE ${leaseHeld(4)}) RETURNING id`,
);
const PARTS_SENT = read((d) => `UPDATE deliveries SET parts_sent = ${d.greatest("parts_sent", "$2")} WHERE id = $1`);
const SENT = read(`UPDATE deliveries SET state = 'sent', sent_at = $2, last_error = NULL WHERE id = $1`);
const ATTEMPT_FAILED = read(
  `UPDATE deliveries SET state = $3, last_error = $4, next_attempt_at = COALESCE($5, next_attempt_at) WHERE id = $1 AND state = 'pending' AND attempts = $2`,
);

/**
 * A delivery per consumer webhook (target: its id) for a new save, pushed or not: a bot pulls every save. Rows
 * already there stay as they are (never twice); a pending row whose webhook was removed is skipped. Each statement
 * stands alone (a hook added between them gets its row from the next save's call; one removed is skipped by the second).
 */
export function* addDataWebhookDeliveries(saveId: number, now: number): Flow<void> {
  yield* run(ADD_HOOKS, [saveId, DATA_WEBHOOK_CHANNEL, now]);
  yield* run(SKIP_REMOVED_HOOKS, [saveId, DATA_WEBHOOK_CHANNEL]);
}

/** Every delivery of a save, oldest first. */
export function* saveDeliveries(saveId: number): Flow<Delivery[]> {
  return yield* run(OF_SAVE, [saveId]);
}

export function* deliveryTally(saveId: number): Flow<DeliveryTally> {
  return tallyOf(yield* run(TALLY, [saveId]));
}

/**
 * Marks the next attempt of a pending delivery whose attempt count is still `seenAttempts`, only under the
 * lease, which it extends first and the claim's statement checks again. `claimed`: this runner may send it (a crash
 * mid-send shows up as a spent attempt); `taken`: the row moved on (another attempt or a result); `lease_lost`: this
 * runner no longer holds the job. The statements need no transaction around them (SQLite's store runs one anyway):
 * the claim carries its own fence.
 */
export function* claimDeliveryAttempt(holder: LeaseHolder, delivery: { id: number; seenAttempts: number }, now: number, leaseMs: number): Flow<ClaimOutcome> {
  if (!(yield* renewLease(holder, now, leaseMs))) return "lease_lost";
  const claimed = yield* run(CLAIM_ATTEMPT, [delivery.id, delivery.seenAttempts, delivery.seenAttempts + 1, holder.jobId, holder.leaseId, now]);
  if (claimed.length === 1) return "claimed";
  return (yield* holdsLease(holder, now)) ? "taken" : "lease_lost";
}

/**
 * Records that the first `count` parts of a delivery were answered (always: they were sent), and says whether
 * the next part may go: only while the lease is still ours (extended here). The parts are recorded in any case.
 */
export function* recordPartsSent(holder: LeaseHolder, deliveryId: number, count: number, now: number, leaseMs: number): Flow<boolean> {
  yield* run(PARTS_SENT, [deliveryId, count]);
  return yield* renewLease(holder, now, leaseMs);
}

export function* markSent(deliveryId: number, at: number): Flow<void> {
  yield* run(SENT, [deliveryId, at]);
}

/**
 * Records a failed attempt: back to `pending` until `retryAt`, or `failed` when `retryAt` is null. Only while
 * the row still shows this attempt: a runner that took the job over may be on the next one.
 */
export function* markAttemptFailed(attempt: FailedAttempt, reason: string, retryAt: number | null): Flow<void> {
  yield* run(ATTEMPT_FAILED, [attempt.deliveryId, attempt.attempt, retryAt === null ? "failed" : "pending", reason, retryAt]);
}

