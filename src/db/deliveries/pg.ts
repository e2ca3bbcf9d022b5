/**
 * The delivery store over a hub's PostgreSQL, the same rules as SQLite's (rows.ts, push-decision.ts; the contract
 * test holds them together). Where SQLite's immediate transactions serialise every writer, here a push decision
 * takes a per-player advisory lock, and an attempt or part is claimed in one statement that renews the job's lease
 * under the one lease predicate (its row lock orders it with a takeover) and writes the delivery only if it held.
 */
import { and, eq, sql } from "drizzle-orm";
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { leaseHeldIn } from "../jobs/lease.ts";
import type { LeaseHolder } from "../../store/model/jobs.ts";
import type { PgDb } from "../pg/open.ts";
import { saveStatements } from "../saves/rules.ts";
import { dataWebhooks, deliveries, jobs, saves } from "../pg/schema.ts";
import { failedChange, newDelivery } from "./rows.ts";
import { DATA_WEBHOOK_CHANNEL, type PushCandidate, tallyOf, type Delivery, type RoutedTarget } from "../../store/model/deliveries.ts";

type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** The advisory lock namespace (two-key form) of push decisions, keyed by the player id's hash. */
const PUSH_DECISION_LOCK = 0x70757368; // "push"

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
        // the deliveries the one before committed, so two saves of one refresh cannot both be pushed. The lock is a
        // statement of its own: a statement's snapshot is taken before it waits, the decision's must be after.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_DECISION_LOCK}::int, hashtext(${save.playerId}))`);
        const [row] = await tx.execute<{ repeat_of: number | null; deliveries: Delivery[] }>(decision(save, targets, configured, now));
        const { repeat_of: repeatOf, deliveries } = row!;
        return repeatOf === null ? { push: true as const, deliveries } : { push: false as const, repeatOf, deliveries };
      }),
    ofSave: (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.id),
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

/** A delivery's columns, and its fields by name (bigint times are safe integers: JSON numbers). */
const DELIVERY_COLUMNS = sql.raw("id, save_id, channel, target, state, attempts, parts_sent, next_attempt_at, last_error, sent_at, created_at");
const DELIVERY_FIELDS = sql.raw(
  "'id', id, 'saveId', save_id, 'channel', channel, 'target', target, 'state', state, 'attempts', attempts, 'partsSent', parts_sent, " +
    "'nextAttemptAt', next_attempt_at, 'lastError', last_error, 'sentAt', sent_at, 'createdAt', created_at",
);

/**
 * push-decision.ts's rule as one statement (run under the player's lock): a save not pushed yet whose drops repeat the
 * player's last push, or their last push of its data type, gets `repeat_of` and no deliveries; any other gets `repeat_of` NULL, a row per
 * routed target (rows.ts's newDelivery) and its pending push rows routed no more skipped. Its one snapshot sees
 * every row the lock's previous holder committed; the rows it adds are routed, so never among the stale. It returns
 * the save's deliveries as it leaves them: its snapshot's rows but the stale, which come back from their update, and
 * the added ones (a statement cannot read its own writes but through RETURNING).
 */
function decision(save: PushCandidate, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number) {
  const routed = JSON.stringify(targets.map((target) => newDelivery(save.saveId, target, configured, now)).map(({ channel, target, state, lastError }) => ({ channel, target, state, last_error: lastError })));
  return sql`
    WITH already AS (SELECT 1 FROM ${deliveries} WHERE save_id = ${save.saveId} AND state <> 'skipped' AND channel <> ${DATA_WEBHOOK_CHANNEL}),
    pushes AS (
      SELECT s.id, s.drops_fingerprint, s.data_type, d.id AS delivery_id FROM ${deliveries} d JOIN ${saves} s ON s.id = d.save_id
      WHERE s.player_id = ${save.playerId} AND s.id <> ${save.saveId} AND d.state <> 'skipped' AND d.channel <> ${DATA_WEBHOOK_CHANNEL}),
    last AS (
      (SELECT id, drops_fingerprint, 0 AS rank FROM pushes ORDER BY delivery_id DESC LIMIT 1)
      UNION ALL
      (SELECT id, drops_fingerprint, 1 AS rank FROM pushes WHERE data_type = (SELECT s2.data_type FROM ${saves} s2 WHERE s2.id = ${save.saveId}) ORDER BY delivery_id DESC LIMIT 1)),
    repeat AS (SELECT id FROM last WHERE ${sql.raw(save.checkRepeat ? "true" : "false")} AND NOT EXISTS (SELECT 1 FROM already) AND drops_fingerprint = ${save.dropsFingerprint} ORDER BY rank LIMIT 1),
    marked AS (${saveStatements.repeatOf(save.saveId, sql`(SELECT id FROM repeat)`)}),
    routed AS (SELECT * FROM jsonb_to_recordset(${routed}::jsonb) AS r(channel text, target text, state text, last_error text)),
    added AS (
      INSERT INTO ${deliveries} (save_id, channel, target, state, last_error, next_attempt_at, created_at)
      SELECT ${save.saveId}::int, channel, target, state, last_error, ${now}::bigint, ${now}::bigint FROM routed WHERE NOT EXISTS (SELECT 1 FROM repeat)
      ON CONFLICT DO NOTHING RETURNING ${DELIVERY_COLUMNS}),
    stale AS (
      UPDATE ${deliveries} SET state = 'skipped', last_error = 'no longer routed to this player'
      WHERE save_id = ${save.saveId} AND state = 'pending' AND channel <> ${DATA_WEBHOOK_CHANNEL} AND NOT EXISTS (SELECT 1 FROM repeat)
        AND (channel, target) NOT IN (SELECT channel, target FROM routed)
      RETURNING ${DELIVERY_COLUMNS}),
    after AS (
      SELECT ${DELIVERY_COLUMNS} FROM ${deliveries} WHERE save_id = ${save.saveId} AND id NOT IN (SELECT id FROM stale)
      UNION ALL SELECT * FROM stale UNION ALL SELECT * FROM added)
    SELECT (SELECT id FROM repeat) AS repeat_of, (SELECT count(*) FROM marked) AS marked,
      coalesce((SELECT json_agg(json_build_object(${DELIVERY_FIELDS}) ORDER BY id) FROM after), '[]'::json) AS deliveries`;
}
