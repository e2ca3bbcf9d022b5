/** How a job moves on after its stage: the change recorded for each result, and how the log line names it. */
import type { PipelineDeps, StageResult } from "./stage.ts";
import { afterTimeout } from "./timeout-policy.ts";
import type { TaskTimeoutError } from "./worker-pool.ts";
import { advanceChange, retryChange, taskProcessDiedChange, type ClaimedJob, type Transition } from "../store/model/jobs.ts";

export type RunResult = StageResult | { kind: "error"; error: string } | { kind: "store_away"; error: string } | { kind: "timeout"; timeout: TaskTimeoutError } | { kind: "task_process_died"; how: string };

export type RecordedResult = Exclude<RunResult, { kind: "consumer_lane" }>;

/**
 * A store was away or too slow: the stage runs again in a few seconds without spending a retry, however long the
 * store stays away (its objects are rewritten into the same claimed folder), and soon after it is back.
 */
const STORE_WAIT_MS = 5000;
export function storeAwayChange(job: ClaimedJob, error: string, now: number): Transition {
  return { state: "pending_retry", runAt: now + Math.round(STORE_WAIT_MS * (0.8 + Math.random() * 0.4)), attempts: Math.max(0, job.attempts - 1), lastError: error };
}

/** The job's change for the stage's result, and how the log line names it. */
export function changeFor(deps: PipelineDeps, job: ClaimedJob, result: RecordedResult, now: number): { change: Transition; outcome: string; note?: string } {
  switch (result.kind) {
    case "advance":
      return { change: advanceChange(result.next, now), outcome: result.next === "done" ? "done" : `next=${result.next}`, note: result.note };
    case "later":
      return { change: { state: "pending_retry", runAt: result.runAt, attempts: 0, lastError: null }, outcome: "later", note: result.note };
    case "fail":
      return { change: { state: "failed", lastError: result.reason }, outcome: "failed", note: result.reason };
    case "wait_for_key":
      return { change: { state: "waiting_for_key", lastError: "no AES key configured" }, outcome: "waiting_for_key", note: "set AES_KEY and AES_IV, then restart" };
    case "error": {
      const change = retryChange(job, result.error, deps.config.pipeline.backoffMs, now);
      return { change, outcome: change.state === "failed" ? "failed" : "retry", note: result.error };
    }
    case "store_away":
      return { change: storeAwayChange(job, result.error, now), outcome: "waiting", note: `${result.error}; tried again soon, no retry spent` };
    case "task_process_died": {
      const change = taskProcessDiedChange(job, result.how, now);
      const parked = change.state === "failed";
      return { change, outcome: parked ? "failed" : "retry", note: `its task's own process died (${result.how})${parked ? "; parked" : ""}` };
    }
    case "timeout": {
      const change = afterTimeout(job.lastError, result.timeout, now);
      return { change, outcome: change.state === "failed" ? "failed" : "retry", note: change.lastError ?? undefined };
    }
  }
}
