/**
 * The render worker's work for one save after another, without a server: `openSave` with its JSON,
 * `packSaveJson`, `generateOutputs`, then the worker's collection 15 ms later (as src/pipeline/worker.ts waits),
 * then `--gap` ms of nothing. Prints CPU and minor page faults a save (all threads) and peak RSS. One checkout per
 * process, so that its heap is its own; run two checkouts alternately for an A/B:
 *
 *   bun bench/worker-loop.ts <checkout> [--gap=0] [--saves=30]
 *
 * A checkout without src/pipeline/worker-heap.ts collects with `Bun.gc(true)`, as its worker did. Launch it
 * with the service's MIMALLOC_PURGE_DELAY (src/launch-env.ts). `--gap=0` is back to back, as the shared
 * harness's latency phase sends saves.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { intArg, peakRssMb, processStat } from "./lib.ts";

const root = process.argv[2];
if (!root || root.startsWith("--")) throw new Error("usage: bun bench/worker-loop.ts <checkout> [--gap=0] [--saves=30]");
const gap = intArg("gap", 0);
const saves = intArg("saves", 30);
const WARM_UP = 4;

const { openSave } = await import(join(root, "src/save/index.ts"));
const { packSaveJson } = await import(join(root, "src/archive/save-json-file.ts"));
const { generateOutputs } = await import(join(root, "src/maps/index.ts"));
const { makeFreshEncryptedSample, randomKeys } = await import(join(root, "src/samples/index.ts"));
const heapModule = join(root, "src/pipeline/worker-heap.ts");
const collect: () => void = existsSync(heapModule) ? (await import(heapModule)).collectWorkerHeap : () => Bun.gc(true);

const { pair } = randomKeys();
const encrypted: Uint8Array[] = Array.from({ length: 6 }, () => makeFreshEncryptedSample(pair));
const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans", showHarvested: false, assetsDir: null, timeZone: "Asia/Shanghai" };

let from = processStat("self");
for (let i = 0; i < WARM_UP + saves; i++) {
  if (i === WARM_UP) from = processStat("self");
  const opened = openSave(encrypted[i % encrypted.length]!, [pair], { json: true });
  if (opened.kind !== "save") throw new Error(`sample save opened as ${opened.kind}`);
  packSaveJson(opened.json);
  await generateOutputs(opened.save, ctx);
  await Bun.sleep(15);
  collect();
  if (gap > 0) await Bun.sleep(gap);
}
const to = processStat("self");
const cpuMs = ((to.cpuSeconds - from.cpuSeconds) * 1000) / saves;
const faults = Math.round((to.minorFaults - from.minorFaults) / saves);
console.log(`${root}: ${cpuMs.toFixed(0)} ms CPU a save, ${faults} minor faults a save, peak RSS ${peakRssMb(process.pid)} MB (${saves} saves, gap ${gap} ms)`);
