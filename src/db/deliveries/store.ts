/**
 * The delivery store, written once over how a store runs this folder's flows (rows.ts, push-decision.ts); SQLite's
 * and a hub's differ only in that (sqlite.ts, pg.ts).
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import type { Flow } from "../dialect/statements.ts";
import { dataWebhookById } from "./data-webhooks.ts";
import { decidePush } from "./push-decision.ts";
import * as rows from "./rows.ts";

export interface DeliveryRunners {
  /** A read, or one statement. */
  one<T>(flow: Flow<T>): Promise<T>;
  /** Statements each safe alone (a hub runs them without a transaction around them: fewer round trips, see rows.ts). */
  several<T>(flow: Flow<T>): Promise<T>;
  /** Statements that must commit together. */
  atomic<T>(flow: Flow<T>): Promise<T>;
}

export function deliveryStore({ one, several, atomic }: DeliveryRunners): DeliveryStore {
  return {
    addDataWebhookDeliveries: (saveId, now) => several(rows.addDataWebhookDeliveries(saveId, now)),
    decidePush: (save, targets, configured, now) => atomic(decidePush(save, targets, configured, now)),
    ofSave: (saveId) => one(rows.saveDeliveries(saveId)),
    tally: (saveId) => one(rows.deliveryTally(saveId)),
    claimAttempt: (holder, delivery, now, leaseMs) => several(rows.claimDeliveryAttempt(holder, delivery, now, leaseMs)),
    recordPartsSent: (holder, deliveryId, count, now, leaseMs) => several(rows.recordPartsSent(holder, deliveryId, count, now, leaseMs)),
    markSent: (deliveryId, at) => one(rows.markSent(deliveryId, at)),
    markAttemptFailed: (attempt, reason, retryAt) => one(rows.markAttemptFailed(attempt, reason, retryAt)),
    dataWebhook: (id) => one(dataWebhookById(id)),
  };
}
