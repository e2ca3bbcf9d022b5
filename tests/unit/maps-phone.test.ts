/** Maps as a player reads them on a 390 CSS px phone: text sizes, the legend's shapes, the title bar, the overview. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parse } from "opentype.js";
import { buildOverviewSvg, buildSiteSvg, describeSave, type OutputsContext } from "../../src/maps/index.ts";
import { fontFiles } from "../../src/maps/render.ts";
import { CAP_HEIGHT_EM, phoneCapHeight, READABLE_CAP_CSS, ZOOMED_CAP_CSS } from "../../src/maps/text-sizes.ts";
import type { MySekaiSave } from "../../src/save/model.ts";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { drop, fixture, material, save, site } from "../helpers/maps-fixtures.ts";

const ctx: OutputsContext = {
  playerId: "7412589630147258963",
  capturedAt: new Date("2025-03-01T00:30:00Z"),
  locale: "zh-Hans",
  showHarvested: false,
  timeZone: "Asia/Shanghai",
};
const model = (s: MySekaiSave, locale: OutputsContext["locale"] = "zh-Hans") => describeSave(s, { ...ctx, locale });
const svgWidth = (svg: string) => Number(/^<svg [^>]*width="(\d+)"/.exec(svg)![1]);
const fontSizes = (fragment: string) => [...fragment.matchAll(/<text [^>]*font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
/** The inner SVG of every `<g class="…">` group whose class list starts with `cls` (none of them nests a group). */
const groups = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`<g class="${cls}[^"]*"[^>]*>(.*?)</g>`, "gs"))].map((m) => m[1]!);
const texts = (fragment: string) => [...fragment.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

/** The smallest cap height, in CSS px at phone width, of the text inside the groups of class `cls` (Infinity: none). */
function smallestCap(svg: string, cls: string): number {
  const sizes = groups(svg, cls).flatMap(fontSizes);
  return sizes.length ? phoneCapHeight(Math.min(...sizes), svgWidth(svg)) : Infinity;
}

describe("text at phone width (390 CSS px)", () => {
  test("the cap height used is the bundled font's, both weights", () => {
    for (const file of fontFiles()) {
      const bytes = readFileSync(file);
      const font = parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      const os2 = (font as unknown as { tables: { os2: { sCapHeight: number } } }).tables.os2;
      expect(os2.sCapHeight / font.unitsPerEm).toBe(CAP_HEIGHT_EM);
    }
  });

  test("rare finds and new songs read without zooming, common drops at 2× zoom, on every map of a busy save", () => {
    const figures: Record<string, number> = {};
    const keep = (name: string, value: number) => (figures[name] = Math.min(figures[name] ?? Infinity, value));
    for (const locale of ["zh-Hans", "ja", "en"] as const) {
      const outputs = model(makeSampleMySekaiSave({ seed: 1 }), locale);
      for (const s of outputs.sites) {
        const svg = buildSiteSvg(outputs, s.siteId, null, { commonLabels: "all" });
        keep("site super label", smallestCap(svg, "label label-super"));
        keep("site rare label", smallestCap(svg, "label label-rare"));
        keep("title-bar chip", smallestCap(svg, "chip"));
        keep("site common label", smallestCap(svg, "label label-common"));
        keep("site new-song label", smallestCap(svg, "label label-record"));
      }
      const overview = buildOverviewSvg(outputs);
      keep("overview rare list", smallestCap(overview, "rare-list"));
    }
    console.log("smallest cap heights, CSS px at 390 px:", Object.entries(figures).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", "));
    for (const [name, cap] of Object.entries(figures)) {
      expect({ name, cap }).not.toEqual({ name, cap: Infinity }); // each kind of text is drawn somewhere
      expect({ name, readable: cap >= (name.includes("common") ? ZOOMED_CAP_CSS : READABLE_CAP_CSS) }).toEqual({ name, readable: true });
    }
  });
});

describe("legend", () => {
  const kinds = (svg: string) => [...svg.matchAll(/<g class="legend-harvest-point" data-kind="(\w+)">/g)].map((m) => m[1]);

  test("one entry per harvest-point shape drawn on the map, and only those", () => {
    const all = [fixture(1001, 0, 0), fixture(1002, 1, 1), fixture(2003, 2, 2), fixture(4005, 4, 4), fixture(6001, 5, 5)];
    expect(kinds(buildSiteSvg(model(save([site(5, [material(1, 3, 3)], all)])), 5))).toEqual(["tree", "rock", "plant", "other"]);
    const some = [fixture(1001, 0, 0), fixture(2003, 2, 2), fixture(2004, 3, 3)];
    const svg = buildSiteSvg(model(save([site(5, [material(1, 3, 3)], some)])), 5);
    expect(kinds(svg)).toEqual(["tree", "rock"]);
    for (const [kind, word] of [["tree", "树木"], ["rock", "石块"]] as const) {
      const entry = groups(svg, `legend-harvest-point" data-kind="${kind}`)[0]!;
      expect(entry).toContain(`class="fx-${kind}"`); // the map's own shape
      expect(texts(entry)).toEqual([word]);
    }
    expect(kinds(buildSiteSvg(model(save([site(5, [material(1, 3, 3)])])), 5))).toEqual([]);
  });
});

describe("title bar", () => {
  test("every rare chip is shown, wrapped onto more rows, super-rare finds and new songs first", () => {
    // Site 7 with every super and rare material and two new songs: the old single row ended in "+N".
    const ids = [66, 65, 64, 61, 34, 33, 32, 24, 20, 12, 5];
    const drops = ids.map((id, i) => material(id, i - 5, i % 3, 2));
    drops.push(drop("mysekai_music_record", 7, 8, 8), drop("mysekai_music_record", 8, -8, -8));
    const svg = buildSiteSvg(model(save([site(7, drops)])), 7);
    const chips = [...svg.matchAll(/<g class="chip"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"[^>]*\/>\n?<text [^>]*>([^<]*)<\/text>/g)].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), label: m[4]! }),
    );
    expect(chips.map((c) => c.label[0])).toEqual([..."★★★★●●◆◆◆◆◆◆◆"]);
    expect(chips.map((c) => c.label)).toContain("● 唱片「快乐万岁」 NEW ×1");
    expect(chips.some((c) => c.label.startsWith("+"))).toBe(false);
    expect(new Set(chips.map((c) => c.y)).size).toBeGreaterThan(1);
    for (const c of chips) expect(c.x + c.w).toBeLessThanOrEqual(svgWidth(svg) - 20);
  });
});

describe("overview", () => {
  test("a label box holds one tier: a super-rare and a rare find on one spot get a box each", () => {
    const svg = buildOverviewSvg(model(save([site(5, [material(12, 0, 0), material(33, 0, 0), drop("mysekai_music_record", 7, 0, 0)])])));
    const boxes = (cls: string) => groups(svg, `label label-${cls}`).map(texts);
    expect(boxes("super")).toEqual([["钻石 ×1"]]);
    expect(boxes("rare")).toEqual([["月光石 ×1"]]);
    expect(boxes("record")).toEqual([["唱片「快乐万岁」 NEW ×1"]]);
  });

  test("the rare list runs in columns across the width, each site's finds under its name", () => {
    const finds: Record<number, number[]> = { 5: [12, 33, 34], 6: [12, 32, 33, 34], 7: [33, 34], 8: [61] };
    const sites = Object.entries(finds).map(([id, ids]) => site(Number(id), ids.map((m, i) => material(m, i, i))));
    const svg = buildOverviewSvg(model(save(sites)));
    const lines = [...groups(svg, "rare-list")[0]!.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3]! }),
    );
    expect(lines).toHaveLength(14);
    const names = lines.filter((l) => !/^[★◆●]/.test(l.text));
    expect(names.map((l) => l.text)).toEqual(["初始空地", "心愿沙滩", "烂漫花田", "忘却之所"]);
    expect(new Set(names.map((l) => l.x)).size).toBe(2);
    expect(Math.max(...names.map((l) => l.x))).toBeGreaterThan(svgWidth(svg) / 2 - 20);
    // Two columns of 9 and 5 rows: the list is 9 rows tall, not 14.
    expect(new Set(lines.map((l) => l.y)).size).toBe(9);
    const under = (name: { x: number; y: number }) => {
      const column = lines.filter((l) => l.x >= name.x && l.x < name.x + 100);
      const next = column.find((l) => l.x === name.x && l.y > name.y)?.y ?? Infinity;
      return column.filter((l) => l.y > name.y && l.y < next).map((l) => l.text);
    };
    expect(names.map(under)).toEqual([
      ["★ 钻石 ×1", "◆ 月光石 ×1", "◆ 流星碎片 ×1"],
      ["★ 钻石 ×1", "◆ 蓝天海玻璃 ×1", "◆ 月光石 ×1", "◆ 流星碎片 ×1"],
      ["◆ 月光石 ×1", "◆ 流星碎片 ×1"],
      ["◆ 雪之结晶 ×1"],
    ]);
  });
});
