/**
 * The deliveries as the notify stage uses them, async so that a hub's PostgreSQL can stand behind them: both stores
 * (src/db/deliveries/sqlite.ts, pg.ts) run the same flows of src/db/deliveries/, SQLite's synchronously. Both pass
 * tests/contract/delivery-store.*.contract.test.ts.
 */
import type { DataWebhook, PushCandidate, PushDecision, ClaimOutcome, Delivery, DeliveryTally, FailedAttempt, RoutedTarget } from "../model/deliveries.ts";
import type { LeaseHolder } from "../model/jobs.ts";

export interface DeliveryStore {
  /** A delivery per current consumer webhook for a save (never a second one); a removed hook's pending row is skipped. */
  addDataWebhookDeliveries(saveId: number, now: number): Promise<void>;
  /**
   * One push per refresh: a save repeating the drops of the player's last push gets `repeatOf` and no deliveries,
   * any other a delivery per routed target (pending, or skipped with the reason); decided atomically per player.
   * With the decision, every delivery of the save as it left it (as ofSave reads them): notify needs no other read.
   */
  decidePush(save: PushCandidate, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number): Promise<PushDecision & { deliveries: Delivery[] }>;
  /** Every delivery of the save, oldest first (rows.ts's dueAt and tallyOf read them). */
  ofSave(saveId: number): Promise<Delivery[]>;
  tally(saveId: number): Promise<DeliveryTally>;

  // The holder's writes, fenced by the job's lease (src/db/jobs/statements.ts leaseHeld), each extending it.
  /** Takes the next attempt of a pending delivery still at `seenAttempts`; `lease_lost` records nothing. */
  claimAttempt(holder: LeaseHolder, delivery: { id: number; seenAttempts: number }, now: number, leaseMs: number): Promise<ClaimOutcome>;
  /** Records the parts answered (always: they were sent); whether the next part may go (the lease is still held). */
  recordPartsSent(holder: LeaseHolder, deliveryId: number, count: number, now: number, leaseMs: number): Promise<boolean>;

  /** The attempt was answered: sent, for good. */
  markSent(deliveryId: number, at: number): Promise<void>;
  /** Pending again from `retryAt` (failed for good when null), only while the row still shows this attempt. */
  markAttemptFailed(attempt: FailedAttempt, reason: string, retryAt: number | null): Promise<void>;
  /** The consumer webhook a data-webhook delivery targets; undefined once removed. */
  dataWebhook(id: number): Promise<DataWebhook | undefined>;
}
