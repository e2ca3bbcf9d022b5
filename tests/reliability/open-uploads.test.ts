/** The open-upload caps on the real server: count and bytes of open tasks are bounded, past them a 429 with Retry-After. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { startServer, type RunningServer } from "../helpers/in-process.ts";
import { reads } from "../helpers/store-reads.ts";

const TTL_MS = 3000;
let server: RunningServer;
beforeAll(async () => {
  // One peer sends everything here: it may hold the whole caps (the per-peer share is tested in upload-rules).
  server = await startServer({ env: { UPLOAD_MAX_OPEN: "3", UPLOAD_MAX_OPEN_MB: "1", UPLOAD_TTL_MINUTES: String(TTL_MS / 60_000), PEER_SHARE: "1" } });
});
afterAll(async () => {
  await server.stop();
  server.cleanup();
});

function post(id: string, index: number, total: number, body: Uint8Array) {
  return fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": id, "X-Chunk-Index": String(index), "X-Total-Chunks": String(total) },
  });
}

async function status(response: Response): Promise<{ status: number; text: string; retryAfter: string | null }> {
  return { status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") };
}

const tasksOf = async (id: string) => (await reads(server).uploadTasks(id)).length;
const saveCount = () => reads(server).saveCount();

test("open tasks up to the caps are accepted, the next gets 429 with Retry-After, single chunks still pass, the TTL frees the cap", async () => {
  // Bytes: 600,000 + 448,576 = exactly 1 MiB is accepted; one more byte in another task is not.
  expect((await status(await post("bytes-a", 0, 2, randomBytes(600_000)))).status).toBe(200);
  expect((await status(await post("bytes-b", 0, 2, randomBytes(448_576)))).status).toBe(200);
  const overBytes = await status(await post("bytes-c", 0, 2, randomBytes(1)));
  expect(overBytes).toMatchObject({ status: 429, text: "open uploads hold too many bytes (1048576); retry later" });
  expect(Number(overBytes.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(await tasksOf("bytes-c")).toBe(0);

  // Count: completing bytes-b frees its bytes; with bytes-a, count-3 and count-4 open the cap (3) is full.
  expect((await status(await post("count-3", 0, 2, randomBytes(100)))).status).toBe(429);
  expect((await status(await post("bytes-b", 1, 2, randomBytes(100)))).status).toBe(200);
  expect((await status(await post("count-3", 0, 2, randomBytes(100)))).status).toBe(200);
  expect((await status(await post("count-4", 0, 2, randomBytes(100)))).status).toBe(200);
  const overCount = await status(await post("count-5", 0, 2, randomBytes(100)));
  expect(overCount).toMatchObject({ status: 429, text: "too many open uploads (3); retry later" });
  const retryAfter = Number(overCount.retryAfter);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= Math.ceil(TTL_MS / 1000)).toBe(true);
  expect(await tasksOf("count-5")).toBe(0);
  // A chunk that completes an open task passes while the cap is full, and frees a place.
  expect((await status(await post("count-3", 1, 2, randomBytes(100)))).status).toBe(200);
  expect((await status(await post("count-6", 0, 2, randomBytes(100)))).status).toBe(200);
  expect((await status(await post("count-7", 0, 2, randomBytes(100)))).status).toBe(429);

  // Single-chunk uploads never become open tasks: they pass while the cap is full, even at 1 MiB.
  const saves = await saveCount();
  expect((await status(await post("single-1", 0, 1, randomBytes(1024 * 1024)))).status).toBe(200);
  expect(await saveCount()).toBe(saves + 1);

  // After the TTL (the Retry-After), the cap is free again.
  await Bun.sleep(retryAfter * 1000 + 50);
  expect((await status(await post("count-7", 0, 2, randomBytes(100)))).status).toBe(200);
  await server.waitForOutput(/\[UPLOAD\] WARN open-upload cap upload=count-5 .*retryAfter=\d/);
});
