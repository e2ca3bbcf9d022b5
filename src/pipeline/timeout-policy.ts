/**
 * What a job whose task ran past TASK_TIMEOUT_MS becomes. A save that draws too slowly once may have met a
 * busy machine, so it gets one more try; it waits as `pending_retry`, which the claim takes only after every
 * fresh `pending` job, so it never holds back the saves queued behind it. A second timeout in a row fails it.
 */
import type { TaskTimeoutError } from "./worker-pool.ts";

export type TimeoutOutcome =
  | { state: "pending_retry"; runAt: number; lastError: string }
  | { state: "failed"; lastError: string };

/** `previousError` is the job's last error before this attempt (null when it had none). */
export function afterTimeout(previousError: string | null, timeout: TaskTimeoutError, now: number): TimeoutOutcome {
  if (previousError?.startsWith(timeout.prefix)) return { state: "failed", lastError: `${timeout.message} twice` };
  return { state: "pending_retry", runAt: now, lastError: `${timeout.message}; tried once more after the queued jobs` };
}
