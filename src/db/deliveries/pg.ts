/**
 * The delivery store over a hub's PostgreSQL: the same flows as SQLite's (rows.ts, push-decision.ts; the contract
 * test holds them together). A push decision takes the player's advisory lock (push-decision.ts), where SQLite's
 * immediate transactions serialise every writer; an attempt or part is claimed in a transaction that first
 * extends the job's lease (its row lock orders it with a takeover).
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { pgFlow, pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { decidePush } from "./push-decision.ts";
import * as rows from "./rows.ts";

export function pgDeliveryStore(db: PgDb): DeliveryStore {
  const { transaction } = pgStatements(db);
  return {
    addDataWebhookDeliveries: (saveId, now) => pgFlow(db, rows.addDataWebhookDeliveries(saveId, now)),
    decidePush: (save, targets, configured, now) => transaction(() => decidePush(save, targets, configured, now)),
    ofSave: (saveId) => pgFlow(db, rows.saveDeliveries(saveId)),
    tally: (saveId) => pgFlow(db, rows.deliveryTally(saveId)),
    claimAttempt: (holder, delivery, now, leaseMs) => transaction(() => rows.claimDeliveryAttempt(holder, delivery, now, leaseMs)),
    recordPartsSent: (holder, deliveryId, count, now, leaseMs) => transaction(() => rows.recordPartsSent(holder, deliveryId, count, now, leaseMs)),
    markSent: (deliveryId, at) => pgFlow(db, rows.markSent(deliveryId, at)),
    markAttemptFailed: (attempt, reason, retryAt) => pgFlow(db, rows.markAttemptFailed(attempt, reason, retryAt)),
    dataWebhook: (id) => pgFlow(db, rows.dataWebhookById(id)),
  };
}
