/**
 * The backoff between a job's attempts, a pure function: the queue's rules on a store (claims, leases, retries,
 * the start-up reclaim, the owner's retry) run on both stores in job-store.*.contract.test.ts.
 */
import { expect, test } from "bun:test";
import { backoffDelay } from "../../src/store/model/jobs.ts";

const BACKOFF_MS = [1_000, 2_000];

test("each step is jittered within ±20 %, and there is no delay past the last step", () => {
  expect(backoffDelay(1, BACKOFF_MS, () => 0)).toBe(800);
  expect(backoffDelay(1, BACKOFF_MS, () => 0.5)).toBe(1_000);
  expect(backoffDelay(1, BACKOFF_MS, () => 0.999_999)).toBe(1_200);
  expect(backoffDelay(2, BACKOFF_MS, () => 0)).toBe(1_600);
  expect(backoffDelay(2, BACKOFF_MS, () => 0.999_999)).toBe(2_400);
  expect(backoffDelay(3, BACKOFF_MS, () => 0.5)).toBeNull();
});
