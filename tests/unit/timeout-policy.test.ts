/**
 * What a task past TASK_TIMEOUT_MS does to its job, a pure function. That a job being retried is claimed after every
 * fresh one, whatever its id, runs on both stores in job-store.*.contract.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { afterTimeout } from "../../src/pipeline/timeout-policy.ts";
import { TaskTimeoutError } from "../../src/pipeline/worker-pool.ts";

describe("a task past TASK_TIMEOUT_MS", () => {
  const timeout = new TaskTimeoutError("generate", 20_000);

  test("the first time: one more try, due now but behind the queue", () => {
    expect(afterTimeout(null, timeout, 1_000)).toEqual({
      state: "pending_retry",
      runAt: 1_000,
      lastError: "rendering took longer than 20 s; tried once more after the queued jobs",
    });
    expect(afterTimeout("network down", timeout, 1_000).state).toBe("pending_retry");
  });

  test("the second time in a row: failed with the reason", () => {
    const first = afterTimeout(null, timeout, 1_000);
    expect(afterTimeout(first.lastError, timeout, 2_000)).toEqual({ state: "failed", lastError: "rendering took longer than 20 s twice" });
    // A timeout recorded under another TASK_TIMEOUT_MS still counts.
    expect(afterTimeout(first.lastError, new TaskTimeoutError("generate", 5_000), 2_000).state).toBe("failed");
  });
});
