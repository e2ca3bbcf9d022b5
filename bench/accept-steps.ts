/**
 * The steps of the report (nothing to process) and upload accept paths timed apart, in this process, on the
 * shared harness's bodies and a store in a temp folder (synchronous=FULL, as the service opens it): median µs
 * per step. `bun bench/accept-steps.ts [--n=100] [--harness=<harness folder with node_modules>]`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase, type Tx } from "../src/db/sqlite/open.ts";
import { storeReport } from "../src/db/uploads/sqlite-store.ts";
import { acceptChunk } from "../src/db/uploads/sqlite.ts";
import { readReportBody } from "../src/ingest/decompress.ts";
import { extractCandidates } from "../src/ingest/har.ts";
import { parseKeyPairs } from "../src/save/keys.ts";
import { mayBeSave } from "../src/save/plausible.ts";
import { sha256Hex } from "../src/sha256.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=").slice(1).join("=");
const harness = resolve(arg("harness") ?? process.env.BENCH_HARNESS ?? join(tmpdir(), "mysekai-shared-harness"));
const n = Number(arg("n") ?? 100);
const { generateSave } = await import(join(harness, "lib/save.mjs"));
const { buildHar } = await import(join(harness, "lib/har.mjs"));
const KEY = "BenchTestKey0001";
const IV = "BenchTestIv00001";

const bodies = Array.from({ length: n }, (_, i) => {
  const save = generateSave({ seed: 30000 + i, key: "OtherBenchKey001", iv: IV });
  return Bun.gzipSync(Buffer.from(JSON.stringify(buildHar({ save: save.encrypted, playerId: `91234563${String(i).padStart(5, "0")}`, seed: 30000 + i, key: KEY, iv: IV }))));
});
const saves = Array.from({ length: n }, (_, i) => generateSave({ seed: 10000 + i, key: KEY, iv: IV }).encrypted as Uint8Array);

const dir = mkdtempSync(join(tmpdir(), "accept-steps-"));
const db = openDatabase(join(dir, "ingest.sqlite"));
const times = new Map<string, number[]>();
const faults = new Map<string, number>();
const minflt = () => Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[7]);
function time<T>(step: string, run: () => T): T {
  const faultsBefore = minflt();
  const started = performance.now();
  const value = run();
  if (value instanceof Promise) throw new Error("timeAsync for promises");
  (times.get(step) ?? times.set(step, []).get(step)!).push((performance.now() - started) * 1000);
  faults.set(step, (faults.get(step) ?? 0) + minflt() - faultsBefore);
  return value;
}
async function timeAsync<T>(step: string, run: () => Promise<T>): Promise<T> {
  const faultsBefore = minflt();
  const started = performance.now();
  const value = await run();
  (times.get(step) ?? times.set(step, []).get(step)!).push((performance.now() - started) * 1000);
  faults.set(step, (faults.get(step) ?? 0) + minflt() - faultsBefore);
  return value;
}
/** A write and its COMMIT timed apart (the group committer's transaction, one write). */
function committed<T>(step: string, write: (tx: Tx) => T): T {
  const client = db.$client;
  client.run("BEGIN IMMEDIATE");
  const value = time(step, () => write(db as unknown as Tx));
  time(`${step.split(":")[0]}: COMMIT (fsync)`, () => client.run("COMMIT"));
  return value;
}

const limits = { maxEntries: 5000, maxCandidates: 64 };
for (const body of bodies) {
  const decoded = await timeAsync("report: read body and gunzip", () => readReportBody(new Response(body).body, { contentEncoding: "gzip", maxEncodedBytes: 20 << 20, maxDecodedBytes: 20 << 20 }));
  if (!decoded.ok) throw new Error(decoded.reason);
  const text = time("report: UTF-8 decode", () => new TextDecoder().decode(decoded.bytes));
  const doc = time("report: JSON.parse", () => JSON.parse(text));
  const extraction = time("report: extract (base64)", () => extractCandidates(doc, null, limits));
  if ("error" in extraction) throw new Error(extraction.error);
  committed("report: inserts", (tx) => storeReport(tx, extraction, { platform: "bench" }, Date.now()));
}
const keys = parseKeyPairs({ AES_KEY: KEY, AES_IV: IV });
saves.forEach((body, i) => {
  time("upload: sha256", () => sha256Hex(body));
  time("upload: mayBeSave", () => mayBeSave(body, keys));
  const header = { uploadId: `bench_${i}`, chunkIndex: 0, totalChunks: 1, originalUrl: null };
  const chunk = { header, body, playerId: `91234561${String(i).padStart(5, "0")}`, peer: "127.0.0.1", now: Date.now() };
  const uploadLimits = { maxUploadBytes: 10 << 20, ttlMs: 600_000, maxOpen: 100, maxOpenBytes: 100 << 20, peerShare: 1, mayBeSave: (b: Uint8Array) => mayBeSave(b, keys) };
  committed("upload: acceptChunk (incl. sha256, mayBeSave)", (tx) => acceptChunk(tx, chunk as never, uploadLimits));
});
db.$client.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
console.log(`${n} harness report bodies (~${Math.round(bodies[0]!.length / 1024)} KiB gzip), ${n} saves (~${Math.round(saves[0]!.length / 1024)} KiB): µs per step, median / p90, minor faults a request`);
for (const [step, xs] of times) console.log(`${step.padEnd(48)} ${median(xs).toFixed(0).padStart(6)} / ${p90(xs).toFixed(0).padEnd(6)} ${((faults.get(step) ?? 0) / xs.length).toFixed(0).padStart(5)}`);
