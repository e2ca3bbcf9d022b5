/**
 * Where one save's CPU goes, step by step, run one step at a time (each map rendered alone) so that the process's
 * CPU across all threads between two steps is that step's: decrypt, MessagePack decode, exact JSON, typed save,
 * save.json pack + gzip, the outputs model, each map's SVG build, text outlines, resvg render, the `pixels` copy,
 * PNG encoding, and the worker's collection. Medians of `--rounds` rounds after 3 warm-ups.
 *
 *   bun bench/save-breakdown.ts [--save=sample|real] [--rounds=15]
 *
 * `sample` is the shared harness's save (makeFreshEncryptedSample); `real` is tests/fixtures/real (a JSON file:
 * its decrypt and decode steps are not measured, it starts at the typed save).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderAsync } from "@resvg/resvg-js";
import { packSaveJson } from "../src/archive/save-json-file.ts";
import { MAP_MAX_WIDTH_PX } from "../src/maps/limits.ts";
import { encodeOpaquePng } from "../src/maps/png.ts";
import { resvgOptions } from "../src/maps/render.ts";
import { describeSave } from "../src/maps/save-outputs.ts";
import { buildOverviewSvg } from "../src/maps/svg-overview.ts";
import { buildSiteSvg } from "../src/maps/svg-site.ts";
import { outlineText } from "../src/maps/text-outlines.ts";
import { collectWorkerHeap } from "../src/pipeline/worker-heap.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { decryptAesCbc, decodeMsgpack, restoreHarvestMaps, toMySekaiSave, type MySekaiSave } from "../src/save/index.ts";
import { exactJson } from "../src/save/exact-json.ts";
import { normaliseTree } from "../src/save/msgpack.ts";

const which = process.argv.find((a) => a.startsWith("--save="))?.slice(7) ?? "sample";
const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 15);
const { pair } = randomKeys();
const encrypted = makeFreshEncryptedSample(pair);
const realJson = readFileSync(join(import.meta.dir, "../tests/fixtures/real/cn-2026-03-23.json"), "utf8");
const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans" as const, showHarvested: false, timeZone: "Asia/Shanghai" };

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const steps = new Map<string, number[]>();
let mark = 0;
const step = (name: string) => {
  const now = cpuMs();
  steps.set(name, [...(steps.get(name) ?? []), now - mark]);
  mark = now;
};

async function oneSave() {
  mark = cpuMs();
  let save: MySekaiSave;
  let json: string;
  if (which === "real") {
    const tree = JSON.parse(realJson);
    step("JSON.parse (real save only)");
    json = JSON.stringify(tree);
    step("save JSON text");
    save = toMySekaiSave(tree)!;
    step("typed save");
  } else {
    const plain = decryptAesCbc(encrypted, pair.key, pair.iv);
    step("decrypt");
    const tree = decodeMsgpack(plain, { exact: true });
    restoreHarvestMaps(tree);
    step("msgpack decode");
    json = exactJson(tree);
    step("save JSON text");
    save = toMySekaiSave(normaliseTree(tree))!;
    step("typed save");
  }
  packSaveJson(json);
  step("save.json pack + gzip");
  const outputs = describeSave(save, ctx);
  step("outputs model");
  const svgs: [string, string][] = [["overview", buildOverviewSvg(outputs, null)]];
  step("SVG build overview");
  for (const site of outputs.sites) svgs.push([`site ${site.siteId}`, buildSiteSvg(outputs, site.siteId, null, { commonLabels: "none" })]);
  step("SVG build sites");
  for (const [name, svg] of svgs) {
    const outlined = outlineText(svg);
    step(`text outlines ${name}`);
    const width = Number(/^<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg)?.[1]);
    const image = await renderAsync(outlined, resvgOptions(outlined, width > MAP_MAX_WIDTH_PX ? MAP_MAX_WIDTH_PX / width : 1));
    step(`resvg ${name}`);
    const pixels = image.pixels;
    step("pixels copy");
    encodeOpaquePng(pixels, image.width, image.height);
    step(`PNG encode ${name}`);
    (pixels.buffer as ArrayBuffer).transfer(0);
  }
  collectWorkerHeap();
  step("collection");
}

for (let i = 0; i < 3; i++) await oneSave();
steps.clear();
for (let i = 0; i < rounds; i++) await oneSave();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let total = 0;
const rows: [string, number][] = [];
for (const [name, xs] of steps) {
  const perSave = median(xs) * (name === "pixels copy" ? 5 : 1);
  total += perSave;
  rows.push([name, perSave]);
}
console.log(`save ${which}, ${rounds} rounds, CPU ms a save (median per step, all threads):`);
for (const [name, ms] of rows) console.log(`  ${name.padEnd(28)} ${ms.toFixed(1)}`);
console.log(`  ${"sum".padEnd(28)} ${total.toFixed(1)}`);
