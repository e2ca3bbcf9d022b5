/**
 * A push the receiver answered is recorded as sent in a step of its own: a database that refuses the record (a
 * dropped connection, a restart, a lock) gets the record again, never the push. The record is retried for up to a
 * lease's time; past that the fact stays in this process, and the delivery's next attempt here records it instead
 * of sending. Only a process that dies meanwhile (or loses the job's lease to another) can push it again.
 */
import { logInfo, logWarn } from "../../log.ts";
import { redactError } from "../redact.ts";
import type { PipelineDeps } from "../stage.ts";
import type { Delivery } from "../../store/model/deliveries.ts";

/** Quick first: a store that comes back is used within a second; then every few seconds. */
const RECORD_RETRY_MS = [250, 500, 1000, 2000, 4000, 5000];

/** Deliveries answered but not recorded, by id: the attempt that sent them and when it was answered. */
const unrecorded = new Map<number, { attempt: number; at: number }>();
/** A bound on what a long outage leaves here (rows retried by another process are never looked up again here). */
const MAX_UNRECORDED = 10_000;

/** When this process sent the delivery's current attempt without recording it, else null (send it). */
export function answeredUnrecorded(delivery: Pick<Delivery, "id" | "attempts">): number | null {
  const sent = unrecorded.get(delivery.id);
  if (sent === undefined) return null;
  // The row moved on (another process's attempt, an owner's resend): what was sent here is no longer its state.
  if (sent.attempt !== delivery.attempts) return void unrecorded.delete(delivery.id), null;
  return sent.at;
}

type Fields = Record<string, string | number>;

/** Records the answered attempt `attempt` of delivery `id` as sent; throws (and remembers it) past the deadline. */
export async function recordSent(deps: PipelineDeps, id: number, attempt: number, at: number, fields: Fields): Promise<void> {
  const deadline = Date.now() + deps.config.pipeline.leaseMs;
  for (let tries = 0; ; tries++) {
    try {
      await deps.deliveries.markSent(id, at);
      unrecorded.delete(id);
      if (tries > 0) logInfo("NOTIFY", "sent; recorded after a retry", { ...fields, tries: tries + 1 });
      return;
    } catch (error) {
      const reason = redactError(error, deps);
      const wait = RECORD_RETRY_MS[Math.min(tries, RECORD_RETRY_MS.length - 1)]!;
      if (Date.now() + wait > deadline) {
        unrecorded.set(id, { attempt, at });
        if (unrecorded.size > MAX_UNRECORDED) unrecorded.delete(unrecorded.keys().next().value!);
        throw new Error(`sent, but the database refused its record (${reason}); the record is tried again, not the push`);
      }
      logWarn("NOTIFY", "sent, but recording it failed; the record is tried again, not the push", { ...fields, error: reason, retryMs: wait });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
