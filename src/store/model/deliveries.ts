/**
 * Deliveries (one push of a save to one channel target) and consumer webhooks, in plain TypeScript: the notify
 * stage and both stores (src/db/deliveries/) share them; tests/unit/model-deliveries.test.ts holds both schemas'
 * rows to these types.
 */

export const DELIVERY_STATES = ["pending", "sent", "failed", "skipped"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** A row of `deliveries` (the schemas' comments say what each column means). */
export interface Delivery {
  id: number;
  saveId: number;
  channel: string;
  target: string;
  state: DeliveryState;
  attempts: number;
  partsSent: number;
  nextAttemptAt: number;
  lastError: string | null;
  sentAt: number | null;
  createdAt: number;
}

/** Where routing sends a save (notify/routing.ts's ChannelTarget fits). */
export interface RoutedTarget {
  channel: string;
  target: string;
  /** Why it cannot be delivered to (an unknown Bark alias): recorded as a skipped delivery. */
  problem?: string;
}

/** Of a save's deliveries, the pending ones whose next attempt is due at `now`. */
export const dueAt = (rows: Delivery[], now: number): Delivery[] => rows.filter((row) => row.state === "pending" && row.nextAttemptAt <= now);

export interface DeliveryTally {
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  /** The earliest next attempt of a pending delivery; null when none is pending. */
  nextAttemptAt: number | null;
}

export function tallyOf(rows: Pick<Delivery, "state" | "nextAttemptAt">[]): DeliveryTally {
  const tally: DeliveryTally = { sent: 0, failed: 0, skipped: 0, pending: 0, nextAttemptAt: null };
  for (const row of rows) {
    tally[row.state] += 1;
    if (row.state === "pending") tally.nextAttemptAt = Math.min(tally.nextAttemptAt ?? row.nextAttemptAt, row.nextAttemptAt);
  }
  return tally;
}

export type ClaimOutcome = "claimed" | "taken" | "lease_lost";

export interface FailedAttempt {
  deliveryId: number;
  /** The attempt's number: its claim set `attempts` to it. */
  attempt: number;
}

export interface PushCandidate {
  saveId: number;
  playerId: string;
  dropsFingerprint: string;
  /** false: push whatever the drops (NOTIFY_REPEAT=1, or the owner's reprocess --notify). */
  checkRepeat: boolean;
}

/** `repeatOf`: the player's last pushed save, whose drops this one repeats; it gets no deliveries. */
export type PushDecision = { push: true } | { push: false; repeatOf: number };

/** The channel name of consumer webhooks' deliveries. */
export const DATA_WEBHOOK_CHANNEL = "data-webhook";
export const DATA_WEBHOOK_PAYLOADS = ["empty", "raw", "json-zstd"] as const;
export type DataWebhookPayload = (typeof DATA_WEBHOOK_PAYLOADS)[number];

/** A row of `data_webhooks`: a consumer webhook the owner registered. */
export interface DataWebhook {
  id: number;
  url: string;
  bearer: string | null;
  payload: DataWebhookPayload;
  checkUrl: string | null;
  createdAt: number;
}
export type DataWebhookCarries = Pick<DataWebhook, "payload" | "checkUrl">;
export const EMPTY_POST: DataWebhookCarries = { payload: "empty", checkUrl: null };
