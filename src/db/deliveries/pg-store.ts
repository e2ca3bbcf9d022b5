/**
 * The delivery store over a hub's PostgreSQL, the same rules as SQLite's (rows.ts, push-decision.ts; the contract
 * test holds them together). Where SQLite's immediate transactions serialise every writer, here a push decision
 * takes a per-player advisory lock, and an attempt or part is claimed in one statement that renews the job's lease
 * under the one lease predicate (its row lock orders it with a takeover) and writes the delivery only if it held.
 */
import { and, desc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { DeliveryStore } from "../../pipeline/delivery-store.ts";
import { leaseHeldIn, type LeaseHolder } from "../jobs/lease.ts";
import type { PgDb } from "../pg/open.ts";
import { dataWebhooks, deliveries, jobs, saves } from "../pg/schema.ts";
import { DATA_WEBHOOK_CHANNEL } from "./data-webhooks.ts";
import { failedChange, newDelivery, noLongerRouted, tallyOf, type RoutedTarget } from "./rows.ts";

/** A save of the same data type as save `saveId`: the last push a repeat is judged against is of its own kind. */
const pgSameDataTypeAs = (saveId: number) => sql`${saves.dataType} = (SELECT s2.data_type FROM saves s2 WHERE s2.id = ${saveId})`;

type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** The advisory lock namespace (two-key form) of push decisions, keyed by the player id's hash. */
const PUSH_DECISION_LOCK = 0x70757368; // "push"

/** A push delivery to be sent or sent (push-decision.ts's rule). */
const pushed = and(ne(deliveries.state, "skipped"), ne(deliveries.channel, DATA_WEBHOOK_CHANNEL));

/** Extends a held lease, as a statement for a WITH: one row when held. */
const renewing = (holder: LeaseHolder, now: number, leaseMs: number) =>
  sql`UPDATE ${jobs} SET lease_expires_at = ${now + leaseMs} WHERE ${leaseHeldIn(jobs, holder, now)} RETURNING 1`;

export function pgDeliveryStore(db: PgDb): DeliveryStore {
  return {
    // One statement, one snapshot of the hooks: rows for the current ones (never twice: the unique index), a pending
    // row of a removed one skipped. With no hook registered it writes nothing, for one round trip.
    addDataWebhookDeliveries: async (saveId, now) =>
      void (await db.execute(sql`
        WITH hooks AS (SELECT id::text AS target FROM ${dataWebhooks}),
        added AS (
          INSERT INTO ${deliveries} (save_id, channel, target, state, next_attempt_at, created_at)
          SELECT ${saveId}::int, ${DATA_WEBHOOK_CHANNEL}, target, 'pending', ${now}::bigint, ${now}::bigint FROM hooks
          ON CONFLICT DO NOTHING RETURNING 1),
        removed AS (
          UPDATE ${deliveries} SET state = 'skipped', last_error = 'data webhook removed'
          WHERE save_id = ${saveId} AND channel = ${DATA_WEBHOOK_CHANNEL} AND state = 'pending' AND target NOT IN (SELECT target FROM hooks)
          RETURNING 1)
        SELECT (SELECT count(*) FROM added) + (SELECT count(*) FROM removed) AS changed`)),
    decidePush: (save, targets, configured, now) =>
      db.transaction(async (tx) => {
        // Deciders of one player's saves take turns (SQLite's immediate transaction does it for all): each sees
        // the deliveries the one before committed, so two saves of one refresh cannot both be pushed.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_DECISION_LOCK}::int, hashtext(${save.playerId}))`);
        const [alreadyPushed] = await tx.select({ id: deliveries.id }).from(deliveries).where(and(eq(deliveries.saveId, save.saveId), pushed)).limit(1);
        if (!alreadyPushed && save.checkRepeat) {
          const [last] = await tx
            .select({ id: saves.id, dropsFingerprint: saves.dropsFingerprint })
            .from(deliveries)
            .innerJoin(saves, eq(saves.id, deliveries.saveId))
            .where(and(eq(saves.playerId, save.playerId), ne(saves.id, save.saveId), pgSameDataTypeAs(save.saveId), pushed))
            .orderBy(desc(deliveries.id))
            .limit(1);
          if (last && last.dropsFingerprint === save.dropsFingerprint) {
            await tx.update(saves).set({ repeatOf: last.id }).where(eq(saves.id, save.saveId));
            return { push: false, repeatOf: last.id };
          }
        }
        await tx.update(saves).set({ repeatOf: null }).where(eq(saves.id, save.saveId));
        await createDeliveries(tx, save.saveId, targets, configured, now);
        return { push: true };
      }),
    due: (saveId, now) => db.select().from(deliveries).where(and(eq(deliveries.saveId, saveId), eq(deliveries.state, "pending"), lte(deliveries.nextAttemptAt, now))),
    tally: async (saveId) => tallyOf(await db.select({ state: deliveries.state, nextAttemptAt: deliveries.nextAttemptAt }).from(deliveries).where(eq(deliveries.saveId, saveId))),
    claimAttempt: async (holder, delivery, now, leaseMs) => {
      const attempt = and(eq(deliveries.id, delivery.id), eq(deliveries.state, "pending"), eq(deliveries.attempts, delivery.seenAttempts));
      const [row] = await db.execute<{ held: number; claimed: number }>(sql`
        WITH lease AS (${renewing(holder, now, leaseMs)}),
        claimed AS (UPDATE ${deliveries} SET attempts = ${delivery.seenAttempts + 1} WHERE ${attempt} AND EXISTS (SELECT 1 FROM lease) RETURNING 1)
        SELECT (SELECT count(*) FROM lease)::int AS held, (SELECT count(*) FROM claimed)::int AS claimed`);
      return row!.claimed === 1 ? "claimed" : row!.held === 1 ? "taken" : "lease_lost";
    },
    recordPartsSent: async (holder, deliveryId, count, now, leaseMs) => {
      const [row] = await db.execute<{ held: number }>(sql`
        WITH parts AS (UPDATE ${deliveries} SET parts_sent = greatest(parts_sent, ${count}) WHERE ${eq(deliveries.id, deliveryId)} RETURNING 1),
        lease AS (${renewing(holder, now, leaseMs)})
        SELECT count(*)::int AS held FROM lease`);
      return row!.held === 1;
    },
    markSent: async (deliveryId, at) => void (await db.update(deliveries).set({ state: "sent", sentAt: at, lastError: null }).where(eq(deliveries.id, deliveryId))),
    markAttemptFailed: async (attempt, reason, retryAt) =>
      void (await db
        .update(deliveries)
        .set(failedChange(reason, retryAt))
        .where(and(eq(deliveries.id, attempt.deliveryId), eq(deliveries.state, "pending"), eq(deliveries.attempts, attempt.attempt)))),
    dataWebhook: async (id) => (await db.select().from(dataWebhooks).where(eq(dataWebhooks.id, id)))[0],
  };
}

/** rows.ts's createDeliveries in the decision's transaction: a row per routed target, stale pending ones skipped. */
async function createDeliveries(tx: PgTx, saveId: number, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number): Promise<void> {
  if (targets.length > 0) await tx.insert(deliveries).values(targets.map((target) => newDelivery(saveId, target, configured, now))).onConflictDoNothing();
  const pending = await tx
    .select({ id: deliveries.id, channel: deliveries.channel, target: deliveries.target })
    .from(deliveries)
    .where(and(eq(deliveries.saveId, saveId), eq(deliveries.state, "pending"), ne(deliveries.channel, DATA_WEBHOOK_CHANNEL)));
  const stale = noLongerRouted(pending, targets).map((row) => row.id);
  if (stale.length > 0) await tx.update(deliveries).set({ state: "skipped", lastError: "no longer routed to this player" }).where(inArray(deliveries.id, stale));
}

/** The owner's retry (rows.ts's retryFailedDeliveries) inside the job module's transaction: the saves of the deliveries due again. */
export async function pgRetryFailedDeliveries(tx: PgTx, now: number, saveId?: number): Promise<number[]> {
  const rows = await tx
    .update(deliveries)
    .set({ state: "pending", attempts: 0, nextAttemptAt: now, lastError: null })
    .where(and(eq(deliveries.state, "failed"), saveId === undefined ? undefined : eq(deliveries.saveId, saveId)))
    .returning({ saveId: deliveries.saveId });
  return rows.map((row) => row.saveId);
}

/** Owner resend (rows.ts's resetDeliveries): the save's deliveries start over. */
export async function pgResetDeliveries(tx: PgTx, saveId: number): Promise<void> {
  await tx.delete(deliveries).where(eq(deliveries.saveId, saveId));
}
