/**
 * Single-POST ~200 KB uploads at concurrency 8 against the real server (synchronous=FULL).
 * `bun bench/upload.ts [--count=2000] [--concurrency=8]`. No AES key is set, so no map is drawn: each job
 * is only parked in `waiting_for_key` (one small write), and the numbers are the upload path: validate,
 * commit, answer.
 */
import { randomBytes } from "node:crypto";
import { startService } from "../scripts/lib/service-process.ts";
import { intArg, latencySummary, peakRssMb, runConcurrent } from "./lib.ts";

const count = intArg("count", 2000);
const concurrency = intArg("concurrency", 8);
const server = await startService();
const base = randomBytes(200 * 1024);

const warm = await runConcurrent(50, concurrency, async (i) => void (await post(`warm-${i}`, i)));
void warm;
const started = performance.now();
const durations = await runConcurrent(count, concurrency, async (i) => {
  const response = await post(`bench-${i}`, i + 1_000_000);
  if (response.status !== 200) throw new Error(`upload ${i}: ${response.status} ${await response.text()}`);
});
const seconds = (performance.now() - started) / 1000;

console.log(`uploads: ${count} × ${base.byteLength} bytes, concurrency ${concurrency}`);
console.log(`accepted: ${(count / seconds).toFixed(0)} uploads/s (${seconds.toFixed(2)} s)`);
console.log(`latency: ${latencySummary(durations)}`);
console.log(`server peak RSS: ${peakRssMb(server.pid)} MB`);
await server.stop();
server.cleanup();

function post(uploadId: string, salt: number): Promise<Response> {
  const body = Buffer.from(base);
  body.writeUInt32LE(salt, 0); // every save distinct, so none is deduplicated away
  return fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": "https://x/api/user/1234567890123456789/mysekai" },
  });
}
