/**
 * The delivery store over a hub's PostgreSQL: the same flows as SQLite's (rows.ts, push-decision.ts; the contract
 * test holds them together). A push decision takes the player's advisory lock (push-decision.ts), where SQLite's
 * immediate transactions serialise every writer; an attempt or part is claimed after the job's lease is extended.
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { pgFlow, pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { decidePush } from "./push-decision.ts";
import { dataWebhookById } from "./data-webhooks.ts";
import * as rows from "./rows.ts";

export function pgDeliveryStore(db: PgDb): DeliveryStore {
  const { transaction } = pgStatements(db);
  return {
    addDataWebhookDeliveries: (saveId, now) => pgFlow(db, rows.addDataWebhookDeliveries(saveId, now)),
    decidePush: (save, targets, configured, now) => transaction(() => decidePush(save, targets, configured, now)),
    ofSave: (saveId) => pgFlow(db, rows.saveDeliveries(saveId)),
    tally: (saveId) => pgFlow(db, rows.deliveryTally(saveId)),
    // Two statements each, no transaction around them (two round trips, not four): see rows.ts.
    claimAttempt: (holder, delivery, now, leaseMs) => pgFlow(db, rows.claimDeliveryAttempt(holder, delivery, now, leaseMs)),
    recordPartsSent: (holder, deliveryId, count, now, leaseMs) => pgFlow(db, rows.recordPartsSent(holder, deliveryId, count, now, leaseMs)),
    markSent: (deliveryId, at) => pgFlow(db, rows.markSent(deliveryId, at)),
    markAttemptFailed: (attempt, reason, retryAt) => pgFlow(db, rows.markAttemptFailed(attempt, reason, retryAt)),
    dataWebhook: (id) => pgFlow(db, dataWebhookById(id)),
  };
}
