import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { jobs, saves } from "../../src/db/schema.ts";
import { claimJob } from "../../src/db/jobs/index.ts";
import { afterTimeout } from "../../src/pipeline/timeout-policy.ts";
import { TaskTimeoutError } from "../../src/pipeline/worker-pool.ts";

const dir = mkdtempSync(join(tmpdir(), "timeout-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

describe("the claim order", () => {
  test("a job being retried is claimed only after every fresh job, whatever its id", () => {
    const db = openDatabase(join(dir, "claim.sqlite"));
    const now = Date.now();
    const row = (saveId: number) => {
      db.insert(saves).values({ id: saveId, sha256: String(saveId), playerId: "1", source: "upload", size: 0, receivedAt: now }).run();
      return { saveId, stage: "generate" as const, createdAt: now, updatedAt: now };
    };
    db.insert(jobs).values({ ...row(1), state: "pending_retry", runAt: now - 10, lastError: "rendering took longer than 20 s" }).run();
    db.insert(jobs).values({ ...row(2), state: "pending", runAt: now }).run();
    db.insert(jobs).values({ ...row(3), state: "pending", runAt: now }).run();
    const order = [claimJob(db, now, 60_000), claimJob(db, now, 60_000), claimJob(db, now, 60_000)].map((job) => job?.id);
    expect(order).toEqual([2, 3, 1]);
    db.$client.close();
  });
});
