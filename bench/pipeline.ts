/**
 * Pipeline benchmark on the real server with realistic 4-site saves.
 * Phase 1 (latency): `--paced` saves, one every `--interval` ms (0: each once the last is archived), so each runs
 * on an idle pipeline:
 *   save-received → archived p50/p95. Phase 2 (throughput): `--burst` saves at once: saves per second.
 * Each phase also gives the server's CPU and minor page faults per save (/proc/<pid>/stat), which depend less on
 * the machine's other work than times do. `--root=DIR` runs another checkout's server (an A/B in one session).
 * `--cpu-prof=DIR`: the server runs under `bun --cpu-prof` (its HTTP thread), written to DIR at stop
 * (bench/cpu-profile-summary.ts sums it).
 * `bun bench/pipeline.ts [--paced=10] [--interval=1500] [--burst=40] [--concurrency=2] [--root=DIR] [--cpu-prof=DIR]`
 */
import { Database } from "bun:sqlite";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { intArg, latencySummary, peakRssMb, processStat } from "./lib.ts";

const paced = intArg("paced", 10);
const interval = intArg("interval", 1500);
const burst = intArg("burst", 40);
const concurrency = intArg("concurrency", 2);
const { pair, env } = randomKeys();
const root = process.argv.find((arg) => arg.startsWith("--root="))?.slice("--root=".length);
const profileDir = process.argv.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length);
const bunArgs = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
const server = await startService({ root, bunArgs, env: { ...env, PIPELINE_CONCURRENCY: String(concurrency), NOTIFY_DEFAULT: "none" } });
const db = server.openDb();

const doneCount = () => (db.query("SELECT count(*) AS n FROM jobs WHERE state = 'done'").get() as { n: number }).n;
const latencies = (database: Database, fromId: number) =>
  (database.query("SELECT a.created_at - s.received_at AS ms FROM saves s JOIN archives a ON a.save_id = s.id WHERE s.id > ?").all(fromId) as { ms: number }[]).map((r) => r.ms);

/** `gapMs` 0: each save once the one before is archived (the shared harness's latency phase). */
async function post(count: number, label: string, gapMs: number | null) {
  const before = doneCount();
  for (let i = 0; i < count; i++) {
    const response = await uploadSave(server.url, makeFreshEncryptedSample(pair), `${label}-${i}`);
    if (response.status !== 200) throw new Error(`upload ${label}-${i}: ${response.status}`);
    if (gapMs === 0) await eventually(() => doneCount() === before + i + 1, 60_000, `${label}-${i} archived`);
    else if (gapMs !== null) await Bun.sleep(gapMs);
  }
}

/** The server's CPU ms and minor faults per save since `from`. */
const perSave = (from: ReturnType<typeof processStat>, saves: number) => {
  const now = processStat(server.pid);
  const cpu = ((now.cpuSeconds - from.cpuSeconds) * 1000) / saves;
  return `server CPU ${cpu.toFixed(0)} ms a save, ${Math.round((now.minorFaults - from.minorFaults) / saves)} minor faults a save`;
};

const pacedFrom = processStat(server.pid);
await post(paced, "paced", interval);
await eventually(() => doneCount() === paced, 120_000, "paced saves archived");
const pacedLatency = latencies(db, 0);
const pacedCost = perSave(pacedFrom, paced);

const burstFrom = processStat(server.pid);
const started = performance.now();
await post(burst, "burst", null);
await eventually(() => doneCount() === paced + burst, 600_000, "burst archived");
const seconds = (performance.now() - started) / 1000;
const burstLatency = latencies(db, paced);
const burstCost = perSave(burstFrom, burst);
db.close();

console.log(`saves: ~${(makeFreshEncryptedSample(pair).byteLength / 1024).toFixed(0)} KB, 4 sites each; PIPELINE_CONCURRENCY=${concurrency}`);
console.log(`idle pipeline, received → archived (${paced} saves): ${latencySummary(pacedLatency)}; ${pacedCost}`);
console.log(`burst of ${burst}: ${(burst / seconds).toFixed(2)} saves/s; received → archived ${latencySummary(burstLatency)}; ${burstCost}`);
console.log(`server peak RSS: ${peakRssMb(server.pid)} MB`);
await server.stop();
server.cleanup();
