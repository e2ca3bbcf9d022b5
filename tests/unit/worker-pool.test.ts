import { afterAll, expect, test } from "bun:test";
import { TaskTimeoutError, WorkerPool } from "../../src/pipeline/worker-pool.ts";

const pool = new WorkerPool(1, 200);
afterAll(() => pool.terminate());

test("a task past the timeout is failed and the worker replaced; the next task runs", async () => {
  // A hung render is simulated by a task that takes seconds: 100 bodies of 256 KB, each tried under 64 keys.
  const slow = pool.run("evaluate", {
    bodies: Array.from({ length: 100 }, () => new Uint8Array(256 * 1024)),
    keys: Array.from({ length: 64 }, (_, i) => ({ label: `k${i}`, key: new Uint8Array(16), iv: new Uint8Array(16) })),
  });
  const error = await slow.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TaskTimeoutError);
  expect((error as Error).message).toBe("evaluating the report took longer than 0.2 s");
  const quick = await pool.run("evaluate", { bodies: [new Uint8Array(15)], keys: [] });
  expect(quick).toEqual({ save: null, partial: null, decryptedAny: false });
});
