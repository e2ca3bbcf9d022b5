/**
 * A spawn image names what appeared at each spot: every resource in the image's language with how often and when
 * last, no label over another or over a spot's mark, labels with no room listed under the image, a legend for the
 * two tiers, and at most MAX_SPOTS spots drawn, the image saying so when there were more.
 */
import { describe, expect, test } from "bun:test";
import { siteProjection } from "../../src/maps/geometry.ts";
import { UI_STRINGS } from "../../src/maps/i18n.ts";
import type { SpawnFind, SpawnSpot } from "../../src/spawns/collect.ts";
import { spawnLabels } from "../../src/spawns/labels.ts";
import { buildSpawnSvg, MAX_SPOTS } from "../../src/spawns/svg.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const date = (at: number) => new Date(at).toISOString().slice(5, 10);
const find = (id: number, tier: "super" | "rare", day: number): SpawnFind => ({ type: "mysekai_material", id, key: `mysekai_material:${id}`, name: `x${id}`, tier, quantity: 1, at: T0 + day * DAY });
const spot = (x: number, z: number, finds: SpawnFind[]): SpawnSpot => ({ siteId: 5, x, z, finds });
const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;

describe("a spawn image", () => {
  test("names each spot's finds in the image's language, with count and newest date, and a legend for both tiers", () => {
    const spots = [spot(3, 4, [find(33, "rare", 27), find(12, "super", 20), find(33, "rare", 10)]), spot(-12, -8, [find(34, "rare", 17)])];
    const svg = buildSpawnSvg(5, spots, { locale: "ja", siteName: "s", subtitle: "t", date });
    expect(svg).toContain("ダイヤモンド ×1 · 11-21");
    expect(svg).toContain("月光石 ×2 · 11-28");
    expect(svg).toContain("流れ星のかけら ×1 · 11-18");
    expect(svg.indexOf("ダイヤモンド")).toBeLessThan(svg.indexOf("月光石")); // super-rare leads its spot's label
    expect(svg).toContain(`>${UI_STRINGS.ja.spawnTiers.super}<`);
    expect(svg).toContain(`>${UI_STRINGS.ja.spawnTiers.rare}<`);
    expect(svg).not.toContain(UI_STRINGS.ja.unplacedLabels);
  });

  test("in a crowd, no label covers another or a mark; a spot without room for its block names its lead find, and is listed whole, tagged on its mark", () => {
    const crowd = Array.from({ length: 40 }, (_, i) => spot(((i % 8) - 4) * 5, (Math.floor(i / 8) - 2) * 5, [find(12, "super", i % 28), find(33 + (i % 3), "rare", (i * 7) % 28)]));
    const proj = siteProjection(5, crowd.map((s) => ({ positionX: s.x, positionZ: s.z })));
    const { blocks, placed, listed } = spawnLabels(crowd, proj, "en", date);
    const whole = placed.filter((p) => !p.short);
    const short = placed.filter((p) => p.short);
    expect(whole.length).toBeGreaterThan(3);
    expect(short.length).toBeGreaterThan(0);
    expect(whole.length + listed.length).toBe(crowd.length);
    for (const s of short) {
      expect(s.lines).toEqual([{ text: `${blocks.find((b) => b.spot === s.spot)!.lines[0]!.text} +1`, tier: "super" }]);
      expect(listed.map((b) => b.spot)).toContain(s.spot);
    }
    const marks = blocks.map((b) => ({ x: b.at.x - b.r, y: b.at.y - b.r, w: 2 * b.r, h: 2 * b.r }));
    for (const [i, a] of placed.entries()) {
      for (const b of placed.slice(i + 1)) expect(overlap(a.box, b.box)).toBe(false);
      for (const m of marks) expect(overlap(a.box, m)).toBe(false);
    }
    const svg = buildSpawnSvg(5, crowd, { locale: "en", siteName: "s", subtitle: "t", date });
    const list = svg.slice(svg.indexOf(UI_STRINGS.en.unplacedLabels));
    expect(svg).toContain(UI_STRINGS.en.unplacedLabels);
    expect(list).toContain(`>A: ${listed[0]!.lines.map((l) => l.text).join(UI_STRINGS.en.listSeparator)}<`);
    // Each listed spot's mark carries its tag instead of its count.
    const { x, y } = listed[0]!.at;
    expect(svg).toMatch(new RegExp(`<circle cx="${x.toFixed(1).replace(/\.0$/, "")}" cy="${y.toFixed(1).replace(/\.0$/, "")}"[^>]*/><text [^>]*>A</text>`));
  });

  test(`draws at most ${MAX_SPOTS} spots, the busiest, and says so`, () => {
    const many = Array.from({ length: MAX_SPOTS + 15 }, (_, i) => spot((i % 15) * 4 - 28, Math.floor(i / 15) * 10 - 25, [find(33, "rare", i % 28)]));
    const svg = buildSpawnSvg(5, many, { locale: "en", siteName: "s", subtitle: "t", date });
    expect(svg.match(/<circle [^>]*stroke-width="4"/g)?.length).toBe(MAX_SPOTS);
    expect(svg).toContain(UI_STRINGS.en.spawnCapped.replace("{shown}", String(MAX_SPOTS)).replace("{spots}", String(MAX_SPOTS + 15)));
    const few = buildSpawnSvg(5, many.slice(0, MAX_SPOTS), { locale: "en", siteName: "s", subtitle: "t", date });
    expect(few).not.toContain("Only the");
  });
});
