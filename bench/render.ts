/**
 * Render bench: all maps (4 site PNGs + overview + summary + rare text) of one save, rendered N times in a row.
 * The save is the real one of tests/fixtures/real (4 sites, 106–230 drops on 30–64 spots each), or with
 * `--save sample` the synthetic sample (seed 1, 160–182 drops a site).
 *
 *   bun run bench/render.ts [--sets 100] [--save real|sample] [--samples docs]
 *
 * Prints time per full set (p50/p95/max), process CPU and minor page faults per set (all threads: JS, libuv
 * pool), PNG bytes per set, peak RSS (VmHWM), and RSS after 10 sets (50 PNG renders)
 * vs after the last set (500 PNG renders by default): growth means a leak.
 * --samples DIR also writes DIR/sample-site.png, DIR/sample-overview.png and DIR/sample-site-ja.png.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateOutputs, type Locale } from "../src/maps/index.ts";
import { makeSampleMySekaiSave } from "../src/samples/index.ts";
import { toMySekaiSave, type MySekaiSave } from "../src/save/index.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function peakRssMb(): number {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const sets = Number(arg("sets") ?? 100);
const samplesDir = arg("samples");
const REAL_SAVE = join(import.meta.dir, "../tests/fixtures/real/cn-2026-03-23.json");
const which = arg("save") ?? "real";
if (which !== "real" && which !== "sample") throw new Error(`--save must be real or sample, got ${which}`);
const sample = makeSampleMySekaiSave({ seed: 1 });
const save: MySekaiSave = which === "real" ? toMySekaiSave(JSON.parse(readFileSync(REAL_SAVE, "utf8")))! : sample;
const ctx = (locale: Locale) => ({
  playerId: "7412589630147258963",
  capturedAt: new Date("2025-03-01T00:30:00Z"),
  locale,
  showHarvested: false,
  assetsDir: null,
  timeZone: "Asia/Shanghai",
});

if (samplesDir) {
  const zh = await generateOutputs(sample, ctx("zh-Hans"));
  const ja = await generateOutputs(sample, ctx("ja"));
  const file = (out: typeof zh, name: string) => out.files.find((f) => f.name === name)!.bytes;
  writeFileSync(join(samplesDir, "sample-site.png"), file(zh, "site_5.png"));
  writeFileSync(join(samplesDir, "sample-overview.png"), file(zh, "overview.png"));
  writeFileSync(join(samplesDir, "sample-site-ja.png"), file(ja, "site_7.png")); // the site with the sample's music record
  console.log(`samples written to ${samplesDir}`);
}

const drops = save.sites.map((s) => s.drops.length);
console.log(`save (${which}): ${save.sites.length} sites, drops per site ${drops.join("/")}; ${sets} full sets (${sets * 5} PNG renders)`);
await generateOutputs(save, ctx("zh-Hans")); // warm-up: JIT, font file cache

const times: number[] = [];
let rssAt10 = 0;
let pngBytes = 0;
const cpu0 = process.cpuUsage();
const faults0 = process.resourceUsage().minorPageFault;
for (let i = 1; i <= sets; i++) {
  const t0 = performance.now();
  const out = await generateOutputs(save, ctx("zh-Hans"));
  Bun.gc(true); // as the pipeline worker does after each save
  times.push(performance.now() - t0);
  if (out.files.length !== 7) throw new Error("unexpected output count");
  pngBytes = out.files.filter((f) => f.name.endsWith(".png")).reduce((n, f) => n + f.bytes.length, 0);
  if (i === 10) {
    Bun.gc(true);
    rssAt10 = mb(process.memoryUsage.rss());
  }
}
const cpu = process.cpuUsage(cpu0);
const faults = process.resourceUsage().minorPageFault - faults0;
Bun.gc(true);
const rssEnd = mb(process.memoryUsage.rss());
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `time per full set: p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
);
console.log(`CPU per set ${((cpu.user + cpu.system) / 1000 / sets).toFixed(0)} ms (includes the GC at set 10), ${(faults / sets).toFixed(0)} minor faults per set; PNG bytes per set ${pngBytes}`);
console.log(`peak RSS ${peakRssMb().toFixed(0)} MB; RSS after 10 sets ${rssAt10.toFixed(0)} MB, after ${sets} sets ${rssEnd.toFixed(0)} MB (growth ${(rssEnd - rssAt10).toFixed(0)} MB)`);
