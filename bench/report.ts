/**
 * HAR reports (gzip'd, one ~200 KB save each, base64 in content.text) at concurrency 8 against the real
 * server with AES keys set, so the pipeline decrypts and renders maps while requests keep arriving.
 * `bun bench/report.ts [--count=1000] [--concurrency=8] [--distinct=50]`.
 * The first `distinct` requests carry new saves (each rendered once); later ones cycle and are duplicates.
 */
import { startService } from "../scripts/lib/service-process.ts";
import { saveUrl } from "../scripts/lib/upload-client.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { intArg, latencySummary, peakRssMb, percentile, runConcurrent } from "./lib.ts";

const count = intArg("count", 1000);
const concurrency = intArg("concurrency", 8);
const distinct = intArg("distinct", 50);

const { pair, env } = randomKeys();
const encoder = new TextEncoder();

function harOf(body: Uint8Array, url: string): Uint8Array {
  const content = { mimeType: "application/octet-stream", size: body.length, text: Buffer.from(body).toString("base64"), encoding: "base64" };
  const entries = [
    { request: { method: "GET", url: "https://game-api.example/api/system", headers: [] }, response: { status: 200, content: { mimeType: "application/json", text: '{"ok":true}' } } },
    { request: { method: "POST", url, headers: [] }, response: { status: 200, content } },
  ];
  return Bun.gzipSync(encoder.encode(JSON.stringify({ log: { entries } })));
}

const saves = Array.from({ length: distinct }, () => makeFreshEncryptedSample(pair));
const prepared = saves.map((save) => harOf(save, saveUrl()));
const warmBody = Bun.gzipSync(encoder.encode(JSON.stringify({ log: { entries: [] } })));
const avgBytes = prepared.reduce((sum, body) => sum + body.length, 0) / prepared.length;

const server = await startService({ env: { ...env, JOB_BACKOFF_MS: "100,100" } });
const post = (body: Uint8Array) =>
  fetch(`${server.url}/capture/report`, { method: "POST", body: body as Uint8Array<ArrayBuffer>, headers: { "content-type": "application/json", "content-encoding": "gzip" } });

await runConcurrent(50, concurrency, async () => void (await (await post(warmBody)).text()));

const started = performance.now();
const durations = await runConcurrent(count, concurrency, async (i) => {
  const response = await post(prepared[i % prepared.length]!);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`report ${i}: ${response.status} ${text}`);
});
const seconds = (performance.now() - started) / 1000;
const sorted = [...durations].sort((a, b) => a - b);

const db = server.openDb();
const stateCounts = () => db.query("SELECT state, count(*) AS n FROM jobs WHERE save_id IS NOT NULL GROUP BY state").all() as { state: string; n: number }[];
const atEnd = stateCounts();
const drainStart = performance.now();
while (stateCounts().some((row) => row.state !== "done" && row.state !== "failed") && performance.now() - drainStart < 120_000) await Bun.sleep(100);
const drainSeconds = (performance.now() - drainStart) / 1000;
const finalStates = stateCounts();
db.close();

console.log(`reports: ${count} × ~${Math.round(avgBytes / 1024)} KB gzip'd HAR (${distinct} distinct saves of ${Math.round(saves[0]!.length / 1024)} KB), concurrency ${concurrency}`);
console.log(`accepted: ${(count / seconds).toFixed(0)} reports/s (${seconds.toFixed(2)} s)`);
console.log(`latency: ${latencySummary(durations)}  (p99 target < 10 ms: ${percentile(sorted, 99) < 10 ? "met" : "MISSED"})`);
console.log(`save jobs when the load ended: ${JSON.stringify(atEnd)}; drained in ${drainSeconds.toFixed(1)} s: ${JSON.stringify(finalStates)}`);
console.log(`server peak RSS: ${peakRssMb(server.pid)} MB`);
await server.stop();
server.cleanup();
