/**
 * Deliveries: one row per (save, channel, target), each attempted alone so a failing channel is retried by
 * itself and a channel already sent is never sent again. Every read and write of the table lives in this folder
 * (SQLite's here, a hub's PostgreSQL's in pg.ts, the same rules), but for the retention sweep's bulk delete
 * and the status page's day counts. An attempt, and each further part of it, is claimed in a transaction that
 * also requires the job's lease to be ours, `running` and unexpired, and extends it: a runner whose lease expired
 * or was taken over sends nothing more.
 */
import { and, eq, exists, inArray, ne, notInArray, sql } from "drizzle-orm";
import { DATA_WEBHOOK_CHANNEL, dueAt, tallyOf, type ClaimOutcome, type Delivery, type DeliveryTally, type FailedAttempt, type RoutedTarget } from "../../store/model/deliveries.ts";
import { holdsLease, leaseHeld, renewLease } from "../jobs/lease.ts";
import type { LeaseHolder } from "../../store/model/jobs.ts";
import type { Db, Tx } from "../open.ts";
import { deliveries, jobs } from "../schema.ts";


/** The row a routed target gets: skipped with the reason when it cannot be sent to, else pending from `now`. */
export function newDelivery(saveId: number, target: RoutedTarget, configured: ReadonlySet<string>, now: number) {
  const problem = target.problem ?? (configured.has(target.channel) ? undefined : `channel ${target.channel} is not configured`);
  const state: Delivery["state"] = problem ? "skipped" : "pending";
  return { saveId, channel: target.channel, target: target.target, state, lastError: problem ?? null, nextAttemptAt: now, createdAt: now };
}

/** Pending push deliveries whose target is routed no more. */
export const noLongerRouted = <R extends { channel: string; target: string }>(pending: R[], targets: RoutedTarget[]): R[] =>
  pending.filter((row) => !targets.some((target) => target.channel === row.channel && target.target === row.target));

/**
 * Adds a row for each routed target not yet recorded: `skipped` with the reason when the target has a problem
 * or its channel is not configured, else `pending`, due at `now`. A pending row whose target is no longer
 * routed (the save took a real player id, or push_map.json changed) is skipped: it gets nothing not yet sent.
 * Runs in the caller's transaction (push-decision.ts's, which decides in the same one whether to push).
 */
export function createDeliveries(tx: Tx, saveId: number, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number): void {
  for (const target of targets) {
    tx.insert(deliveries).values(newDelivery(saveId, target, configured, now)).onConflictDoNothing().run();
  }
  const pending = tx
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.saveId, saveId), eq(deliveries.state, "pending"), ne(deliveries.channel, DATA_WEBHOOK_CHANNEL)))
    .all();
  const stale = noLongerRouted(pending, targets);
  if (stale.length > 0) {
    tx.update(deliveries)
      .set({ state: "skipped", lastError: "no longer routed to this player" })
      .where(inArray(deliveries.id, stale.map((row) => row.id)))
      .run();
  }
}

/**
 * A delivery per consumer webhook (target: its id) for a new save, pushed or not: a bot pulls every save. Rows
 * already there stay as they are (never twice); a pending row whose webhook was removed is skipped.
 */
export function createDataWebhookDeliveries(db: Db, saveId: number, hookIds: number[], now: number): void {
  db.transaction(
    (tx) => {
      for (const id of hookIds) {
        tx.insert(deliveries)
          .values({ saveId, channel: DATA_WEBHOOK_CHANNEL, target: String(id), state: "pending", nextAttemptAt: now, createdAt: now })
          .onConflictDoNothing()
          .run();
      }
      const current = hookIds.map(String);
      tx.update(deliveries)
        .set({ state: "skipped", lastError: "data webhook removed" })
        .where(
          and(
            eq(deliveries.saveId, saveId),
            eq(deliveries.channel, DATA_WEBHOOK_CHANNEL),
            eq(deliveries.state, "pending"),
            current.length > 0 ? notInArray(deliveries.target, current) : undefined,
          ),
        )
        .run();
    },
    { behavior: "immediate" },
  );
}

/** Every delivery of a save, oldest first. */
export function saveDeliveries(db: Db, saveId: number): Delivery[] {
  return db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.id).all();
}




export function deliveryTally(db: Db, saveId: number): DeliveryTally {
  return tallyOf(db.select({ state: deliveries.state, nextAttemptAt: deliveries.nextAttemptAt }).from(deliveries).where(eq(deliveries.saveId, saveId)).all());
}


/**
 * Marks the next attempt of a pending delivery whose attempt count is still `seenAttempts`, only under the
 * lease. `claimed`: this runner may send it (a crash mid-send shows up as a spent attempt); `taken`: the row
 * moved on (another attempt or a result); `lease_lost`: this runner no longer holds the job.
 */
export function claimDeliveryAttempt(
  db: Db,
  holder: LeaseHolder,
  delivery: { id: number; seenAttempts: number },
  now: number,
  leaseMs: number,
): ClaimOutcome {
  return db.transaction(
    (tx) => {
      const claimed = tx
        .update(deliveries)
        .set({ attempts: delivery.seenAttempts + 1 })
        .where(
          and(
            eq(deliveries.id, delivery.id),
            eq(deliveries.state, "pending"),
            eq(deliveries.attempts, delivery.seenAttempts),
            exists(tx.select({ one: sql`1` }).from(jobs).where(leaseHeld(holder, now))),
          ),
        )
        .returning({ id: deliveries.id })
        .all();
      if (claimed.length === 1) {
        renewLease(tx, holder, now, leaseMs);
        return "claimed";
      }
      return holdsLease(tx, holder, now) ? "taken" : "lease_lost";
    },
    { behavior: "immediate" },
  );
}

/**
 * Records that the first `count` parts of a delivery were answered (always: they were sent), and says whether
 * the next part may go: only while the lease is still ours (extended here).
 */
export function recordPartsSent(db: Db, holder: LeaseHolder, deliveryId: number, count: number, now: number, leaseMs: number): boolean {
  return db.transaction(
    (tx) => {
      tx.update(deliveries).set({ partsSent: sql`max(${deliveries.partsSent}, ${count})` }).where(eq(deliveries.id, deliveryId)).run();
      return renewLease(tx, holder, now, leaseMs);
    },
    { behavior: "immediate" },
  );
}

export function markSent(db: Db, deliveryId: number, at: number): void {
  db.update(deliveries).set({ state: "sent", sentAt: at, lastError: null }).where(eq(deliveries.id, deliveryId)).run();
}


/** A failed attempt's change: pending again from `retryAt`, or failed for good when it is null. */
export const failedChange = (reason: string, retryAt: number | null) =>
  retryAt === null ? { state: "failed" as const, lastError: reason } : { state: "pending" as const, lastError: reason, nextAttemptAt: retryAt };

/**
 * Records a failed attempt: back to `pending` until `retryAt`, or `failed` when `retryAt` is null. Only while
 * the row still shows this attempt: a runner that took the job over may be on the next one.
 */
export function markAttemptFailed(db: Db, attempt: FailedAttempt, reason: string, retryAt: number | null): void {
  db.update(deliveries)
    .set(failedChange(reason, retryAt))
    .where(and(eq(deliveries.id, attempt.deliveryId), eq(deliveries.state, "pending"), eq(deliveries.attempts, attempt.attempt)))
    .run();
}
