/**
 * Map rendering of two checkouts in one process, in alternation (ABBA), so that a machine shared with other work
 * loads both alike. Two measures:
 * - per full set of maps (generateOutputs of the sample save, then the worker's full GC): process CPU, all
 *   threads, minor page faults, and generateOutputs' wall time (what a save's latency holds of it);
 * - per map, resvg's parse and render alone, one at a time on this thread, in this thread's CPU time
 *   (CLOCK_THREAD_CPUTIME_ID): other threads' GC and JIT stay out of it, so a change of ~1 ms a map shows
 *   where the whole set's spread (±5 ms on a loaded machine) hides it.
 *
 *   bun bench/render-ab.ts <checkout A> <checkout B> [--sets=30]
 *
 * Launch it with the service's MIMALLOC_PURGE_DELAY (src/launch-env.ts). Each checkout draws with its own code;
 * the sample save comes from A's generator (seed 1).
 */
import { Resvg } from "@resvg/resvg-js";
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { collectWorkerHeap } from "../src/pipeline/worker-heap.ts";
import { intArg, percentile } from "./lib.ts";

const [rootA, rootB] = process.argv.slice(2, 4);
if (!rootA || !rootB || rootB.startsWith("--")) throw new Error("usage: bun bench/render-ab.ts <checkout A> <checkout B> [--sets=30]");
const sets = intArg("sets", 30);

const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const CLOCK_THREAD_CPUTIME_ID = 3;
const timespec = new BigInt64Array(2);
const threadCpuMs = () => {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, ptr(timespec));
  return Number(timespec[0]!) * 1000 + Number(timespec[1]!) / 1e6;
};
const processCpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const minorFaults = () => Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[7]);

const save = (await import(`${rootA}/src/samples/index.ts`)).makeSampleMySekaiSave({ seed: 1 });
const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans", showHarvested: false, assetsDir: null, timeZone: "Asia/Shanghai" };

interface Checkout {
  generate: () => Promise<unknown>;
  /** One resvg parse + render per map (the overview first), with the options renderPng would give. */
  maps: (() => unknown)[];
}

async function load(root: string): Promise<Checkout> {
  const maps = await import(`${root}/src/maps/index.ts`);
  const { outlineText } = await import(`${root}/src/maps/text-outlines.ts`);
  const { resvgOptions } = await import(`${root}/src/maps/render.ts`);
  const { MAP_MAX_WIDTH_PX } = await import(`${root}/src/maps/limits.ts`);
  const outputs = maps.describeSave(save, ctx);
  const svgs: string[] = [maps.buildOverviewSvg(outputs, null), ...outputs.sites.map((s: { siteId: number }) => maps.buildSiteSvg(outputs, s.siteId, null))];
  return {
    generate: () => maps.generateOutputs(save, ctx),
    maps: svgs.map((svg) => {
      const width = Number(/^<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg)![1]);
      const outlined = outlineText(svg);
      const options = resvgOptions(outlined, width > MAP_MAX_WIDTH_PX ? MAP_MAX_WIDTH_PX / width : 1);
      return () => new Resvg(outlined, options).render();
    }),
  };
}

const checkouts = { A: await load(rootA), B: await load(rootB) };
const order = (i: number) => (i % 2 ? (["A", "B"] as const) : (["B", "A"] as const));
const spread = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} (p25 ${percentile(s, 25).toFixed(1)}, p75 ${percentile(s, 75).toFixed(1)})`;
};

for (let i = 0; i < 3; i++) for (const c of Object.values(checkouts)) await c.generate(); // warm-up: JIT, font caches
const setCpu = { A: [] as number[], B: [] as number[] };
const setFaults = { A: [] as number[], B: [] as number[] };
const setWall = { A: [] as number[], B: [] as number[] };
const mapCpu = { A: checkouts.A.maps.map((): number[] => []), B: checkouts.B.maps.map((): number[] => []) };
for (let i = 0; i < sets; i++) {
  for (const name of order(i)) {
    const f0 = minorFaults();
    const c0 = processCpuMs();
    const t0 = performance.now();
    await checkouts[name].generate();
    setWall[name].push(performance.now() - t0);
    collectWorkerHeap(); // as the pipeline worker does after each save
    setCpu[name].push(processCpuMs() - c0);
    setFaults[name].push(minorFaults() - f0);
  }
  for (const name of order(i)) {
    checkouts[name].maps.forEach((render, m) => {
      const t0 = threadCpuMs();
      render();
      mapCpu[name][m]!.push(threadCpuMs() - t0);
    });
    collectWorkerHeap();
  }
}
for (const [name, root] of [["A", rootA], ["B", rootB]] as const) {
  const medians = mapCpu[name].map((v) => percentile([...v].sort((a, b) => a - b), 50));
  console.log(`${name} ${root}`);
  console.log(`  a set: process CPU ms ${spread(setCpu[name])}; minor faults ${spread(setFaults[name])}; wall ms ${spread(setWall[name])}`);
  console.log(`  resvg parse + render a map, this thread's CPU ms p50 (overview, sites): ${medians.map((m) => m.toFixed(1)).join(", ")}; sum ${medians.reduce((s, m) => s + m, 0).toFixed(1)}`);
}
