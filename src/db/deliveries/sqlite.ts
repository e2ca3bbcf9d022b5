/**
 * The delivery store over SQLite: the flows of this folder (rows.ts, push-decision.ts), run synchronously, each
 * call its own immediate transaction on the event loop's thread (no async callback ever reaches db.transaction).
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { sqliteFlow, sqliteTransaction } from "../dialect/sqlite.ts";
import type { Db } from "../sqlite/open.ts";
import { decidePush } from "./push-decision.ts";
import { dataWebhookById } from "./data-webhooks.ts";
import * as rows from "./rows.ts";

export function sqliteDeliveryStore(db: Db): DeliveryStore {
  return {
    addDataWebhookDeliveries: async (saveId, now) => sqliteTransaction(db, rows.addDataWebhookDeliveries(saveId, now)),
    decidePush: async (save, targets, configured, now) => sqliteTransaction(db, decidePush(save, targets, configured, now)),
    ofSave: async (saveId) => sqliteFlow(db, rows.saveDeliveries(saveId)),
    tally: async (saveId) => sqliteFlow(db, rows.deliveryTally(saveId)),
    claimAttempt: async (holder, delivery, now, leaseMs) => sqliteTransaction(db, rows.claimDeliveryAttempt(holder, delivery, now, leaseMs)),
    recordPartsSent: async (holder, deliveryId, count, now, leaseMs) => sqliteTransaction(db, rows.recordPartsSent(holder, deliveryId, count, now, leaseMs)),
    markSent: async (deliveryId, at) => sqliteFlow(db, rows.markSent(deliveryId, at)),
    markAttemptFailed: async (attempt, reason, retryAt) => sqliteFlow(db, rows.markAttemptFailed(attempt, reason, retryAt)),
    dataWebhook: async (id) => sqliteFlow(db, dataWebhookById(id)),
  };
}
