/**
 * The delivery store over SQLite: the synchronous functions of this folder, each call its own transaction on the
 * event loop's thread (no async callback ever reaches db.transaction), exactly as the notify stage called them.
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import type { Db } from "../open.ts";
import { dataWebhookById, listDataWebhooks } from "./sqlite-data-webhooks.ts";
import { decidePush } from "./push-decision.ts";
import { claimDeliveryAttempt, createDataWebhookDeliveries, deliveryTally, markAttemptFailed, markSent, recordPartsSent, saveDeliveries } from "./rows.ts";

export function sqliteDeliveryStore(db: Db): DeliveryStore {
  return {
    addDataWebhookDeliveries: async (saveId, now) => createDataWebhookDeliveries(db, saveId, listDataWebhooks(db).map((hook) => hook.id), now),
    // The same thread, no await between: nothing else writes between the decision and the read.
    decidePush: async (save, targets, configured, now) => ({ ...decidePush(db, save, targets, configured, now), deliveries: saveDeliveries(db, save.saveId) }),
    ofSave: async (saveId) => saveDeliveries(db, saveId),
    tally: async (saveId) => deliveryTally(db, saveId),
    claimAttempt: async (holder, delivery, now, leaseMs) => claimDeliveryAttempt(db, holder, delivery, now, leaseMs),
    recordPartsSent: async (holder, deliveryId, count, now, leaseMs) => recordPartsSent(db, holder, deliveryId, count, now, leaseMs),
    markSent: async (deliveryId, at) => markSent(db, deliveryId, at),
    markAttemptFailed: async (attempt, reason, retryAt) => markAttemptFailed(db, attempt, reason, retryAt),
    dataWebhook: async (id) => dataWebhookById(db, id),
  };
}
