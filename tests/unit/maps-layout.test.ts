/**
 * Site maps read on a real save: checked on the layout's own numbers (label boxes, leader lines, markers), not on
 * pixels. No two labels overlap, no leader line crosses another or a label, no label covers a rare marker, every
 * find is labelled (on the map or in the list under it), and the legend claims no mark the map does not show.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeSave, renderPng, type OutputsContext } from "../../src/maps/index.ts";
import { kindMark, kindMarkSvg } from "../../src/maps/kind-marks.ts";
import type { Box, Segment } from "../../src/maps/label-layout.ts";
import { shownMarks, type MapLayout } from "../../src/maps/map-layout.ts";
import { legendMarks } from "../../src/maps/svg-legend.ts";
import { markerRadius } from "../../src/maps/svg-markers.ts";
import { projectionOf, siteMap, type SiteDrawing } from "../../src/maps/svg-site.ts";
import { svgDocument } from "../../src/maps/svg-util.ts";
import { toMySekaiSave, type MySekaiSave } from "../../src/save/index.ts";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { material, save, site } from "../helpers/maps-fixtures.ts";

const REAL_SAVE = join(import.meta.dir, "../fixtures/real/cn-2026-03-23.json");
const realSave = () => toMySekaiSave(JSON.parse(readFileSync(REAL_SAVE, "utf8")))!;
const ctx: OutputsContext = { playerId: "7000000000000000001", capturedAt: new Date("2026-03-23T10:31:00Z"), locale: "zh-Hans", showHarvested: false };

/** Shared area only: boxes that touch along an edge do not overlap. */
function overlaps(a: Box, b: Box): boolean {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0.5 && h > 0.5;
}

/** Points along the segment, its ends left out: one strictly inside the box means the line runs across it. */
function crossesBox(s: Segment, b: Box): boolean {
  for (let i = 1; i < 200; i++) {
    const x = s.x1 + ((s.x2 - s.x1) * i) / 200;
    const y = s.y1 + ((s.y2 - s.y1) * i) / 200;
    if (x > b.x + 0.5 && x < b.x + b.w - 0.5 && y > b.y + 0.5 && y < b.y + b.h - 0.5) return true;
  }
  return false;
}

/** Proper crossing of two segments (touching at an end, as two leaders from one spot do, is not crossing). */
function crosses(a: Segment, b: Segment): boolean {
  const side = (p: Segment, x: number, y: number) => Math.sign((p.x2 - p.x1) * (y - p.y1) - (p.y2 - p.y1) * (x - p.x1));
  return side(b, a.x1, a.y1) * side(b, a.x2, a.y2) < 0 && side(a, b.x1, b.y1) * side(a, b.x2, b.y2) < 0;
}

/** Whether some of a harvest point's edge shows past every mark drawn on its position. */
function fixtureShows(layout: MapLayout, f: MapLayout["fixtures"][number]): boolean {
  const spot = layout.spots.find((sp) => Math.abs(sp.at.x - f.x) < 0.01 && Math.abs(sp.at.y - f.y) < 0.01);
  if (!spot) return true;
  const discs = spot.marks.map((m) => ({ x: m.x, y: m.y, r: m.r * 1.2 }));
  if (spot.emphasis !== "common") discs.push({ x: spot.at.x, y: spot.at.y, r: spot.emphasis === "super" ? 13.5 : 13 }); // opaque centre
  const edge = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => ({ x: f.x + 0.9 * f.r * Math.cos((k * Math.PI) / 4), y: f.y + 0.9 * f.r * Math.sin((k * Math.PI) / 4) }));
  return edge.some((p) => discs.every((d) => Math.hypot(p.x - d.x, p.y - d.y) > d.r));
}

/** Every rule broken on one site map, as readable strings (empty: the map is sound). */
function problems(s: MySekaiSave, drawing: SiteDrawing): string[] {
  const outputs = describeSave(s, ctx);
  const found: string[] = [];
  for (const view of outputs.sites) {
    const { layout } = siteMap(outputs, view.siteId, null, drawing);
    const at = `site ${view.siteId}`;
    const proj = projectionOf(view);
    // Label blocks and the clusters' counts: every box on the map that holds text.
    const labels = [
      ...layout.labels.map((l) => ({ box: l.box, leader: l.leader, name: `"${l.text.lines[0]}"` })),
      ...layout.counts.map((c) => ({ box: c.box, leader: null, name: `count ${c.text}` })),
    ];
    const rareMarks = layout.spots
      .filter((sp) => sp.emphasis !== "common")
      .map((sp) => ({ spot: sp, r: markerRadius(sp.emphasis) }))
      .map(({ spot, r }) => ({ x: spot.at.x - r, y: spot.at.y - r, w: 2 * r, h: 2 * r }));
    labels.forEach((a, i) => {
      const name = a.name;
      if (a.box.x < 0 || a.box.y < 0 || a.box.x + a.box.w > proj.width || a.box.y + a.box.h > proj.height) found.push(`${at}: ${name} leaves the map`);
      for (const mark of rareMarks) if (overlaps(a.box, mark)) found.push(`${at}: ${name} covers a rare marker`);
      labels.forEach((b, j) => {
        if (j <= i) return;
        if (overlaps(a.box, b.box)) found.push(`${at}: labels ${name} and ${b.name} overlap`);
        if (a.leader && b.leader && crosses(a.leader, b.leader)) found.push(`${at}: leaders of ${name} and ${b.name} cross`);
      });
      labels.forEach((b, j) => {
        if (j !== i && a.leader && crossesBox(a.leader, b.box)) found.push(`${at}: the leader of ${name} crosses label ${b.name}`);
      });
    });
    // A cluster's count covers no mark (it stands for the marks beside it).
    for (const c of layout.counts) {
      for (const sp of layout.spots) for (const m of sp.marks) if (overlaps(c.box, { x: m.x - m.r, y: m.y - m.r, w: 2 * m.r, h: 2 * m.r })) found.push(`${at}: count ${c.text} covers a mark`);
    }
    // Every find and new song is labelled, on the map or in the list under it.
    const labelled = new Set([...layout.labels.map((l) => l.block), ...layout.unplaced.map((u) => u.block)].flatMap((b) => b.items.map((i) => `${b.spot.positionX},${b.spot.positionZ},${i.resource.key}`)));
    for (const spot of view.spots) {
      for (const item of spot.items) {
        const key = `${spot.positionX},${spot.positionZ},${item.resource.key}`;
        if (item.resource.emphasis !== "common" && !labelled.has(key)) found.push(`${at}: ${item.resource.name} has no label`);
        if (item.resource.emphasis === "common" && drawing.commonLabels === "none" && labelled.has(key)) found.push(`${at}: common ${item.resource.name} is labelled`);
      }
    }
    // The legend claims only marks the map shows.
    const shown = shownMarks(layout);
    const legend = legendMarks(view, layout);
    for (const mark of legend.resources) if (!shown.has(mark)) found.push(`${at}: the legend shows ${mark}, the map does not`);
    for (const kind of legend.harvestPoints) {
      if (!layout.fixtures.some((f) => f.kind === kind && fixtureShows(layout, f))) found.push(`${at}: the legend shows harvest point ${kind}, hidden on the map`);
    }
  }
  return found;
}

const saves: [string, () => MySekaiSave][] = [
  ["the real CN save", realSave],
  ["the busy sample", () => makeSampleMySekaiSave({ seed: 1 })],
];

describe("site maps: no overlaps, every find labelled, an honest legend", () => {
  for (const [name, make] of saves) {
    for (const commonLabels of ["none", "all"] as const) {
      test(`${name}, MAP_COMMON_LABELS=${commonLabels}`, () => {
        expect(problems(make(), { commonLabels })).toEqual([]);
      });
    }
  }

  test("the real save: no common drop labelled by default, every spot still drawn with its kinds' marks, patches counted", () => {
    const outputs = describeSave(realSave(), ctx);
    const counts: string[] = [];
    for (const view of outputs.sites) {
      const { layout } = siteMap(outputs, view.siteId);
      counts.push(...layout.counts.map((c) => `${view.siteId} ${c.kind} ${c.text}`));
      expect(siteMap(outputs, view.siteId, null, { commonLabels: "all" }).layout.counts).toEqual([]);
      expect(layout.spots.length).toBe(view.spots.length);
      for (const sp of layout.spots) {
        const kinds = new Set(sp.spot.items.filter((i) => i.resource.emphasis === "common").map((i) => i.resource.kind));
        expect(new Set(sp.marks.map((m) => m.kind))).toEqual(kinds);
      }
    }
    // The densest site's flower patches (花瓣 ×1 on each of 36 spots) are counted, not labelled spot by spot.
    expect(counts.filter((c) => c.startsWith("7 plant")).length).toBeGreaterThan(1);
  });

  test("a crowd of finds on one spot's neighbourhood: the ones with no room go to the list, none on another", () => {
    // 60 rare finds packed into a small area: far more label than map around them.
    const rare = [32, 33, 34, 61, 64, 65, 66];
    const drops = Array.from({ length: 60 }, (_, i) => material(rare[i % rare.length]!, (i % 10) * 2, Math.floor(i / 10) * 2));
    const crowded = save([site(5, drops)]);
    expect(problems(crowded, { commonLabels: "none" })).toEqual([]);
    const outputs = describeSave(crowded, ctx);
    const { layout } = siteMap(outputs, 5);
    expect(layout.unplaced.length).toBeGreaterThan(0);
    expect(layout.labels.length + layout.unplaced.length).toBe(60);
  });
});

describe("marks of common drops", () => {
  const KINDS = ["wood", "mineral", "plant", "junk", "item", "fixture", "music_record", "tone", "game_character", "material", "unknown"];

  test("each kind has a shape of its own (colour alone fails colour-blind players); character kinds share one", () => {
    const shapes = KINDS.map((k) => kindMark(k).shape);
    expect(new Set(shapes).size).toBe(KINDS.length);
    expect(kindMark("birthday_party").id).toBe(kindMark("game_character").id);
    expect(kindMark("a_kind_from_a_newer_game").id).toBe(kindMark("unknown").id);
  });

  test("every mark, faded or not, is SVG that resvg draws", async () => {
    const marks = KINDS.flatMap((k, i) => [kindMarkSvg(30 + i * 40, 30, k, 10, false), kindMarkSvg(30 + i * 40, 70, k, 10, true)]);
    const png = await renderPng(svgDocument(KINDS.length * 40 + 20, 100, marks));
    expect(png.length).toBeGreaterThan(100);
  });
});
