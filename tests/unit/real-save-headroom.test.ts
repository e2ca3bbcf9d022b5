/** The caps leave a real save at least 4× room on every density measure: a real save refused by a cap is a save lost. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MSGPACK_LIMITS, SAVE_LIMITS } from "../../src/save/limits.ts";

const REAL = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/real/cn-2026-03-23.json"), "utf8"));
/** What the other published real save of the same player holds (issue 33): its densest site and tree. */
const DENSEST_PUBLISHED = { dropsPerSite: 256, spotsPerSite: 98, values: 22_500, depth: 10 };

/** Containers nested (the top object is 1), values counted as the MessagePack scan counts them (map keys too). */
function measure(value: unknown, depth = 1): { depth: number; values: number; longestArray: number } {
  if (value === null || typeof value !== "object") return { depth: 0, values: 1, longestArray: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const keys = Array.isArray(value) ? 0 : children.length;
  const inner = children.map((c) => measure(c, depth + 1));
  return {
    depth: Math.max(depth, ...inner.map((m) => m.depth)),
    values: 1 + keys + inner.reduce((n, m) => n + m.values, 0),
    longestArray: Math.max(Array.isArray(value) ? value.length : 0, ...inner.map((m) => m.longestArray)),
  };
}

test("the real save and its denser sibling sit at most a quarter of the way to every density cap", () => {
  const maps = REAL.updatedResources.userMysekaiHarvestMaps as { userMysekaiSiteHarvestResourceDrops: unknown[]; userMysekaiSiteHarvestFixtures: unknown[] }[];
  const tree = measure(REAL);
  const real = {
    dropsPerSite: Math.max(DENSEST_PUBLISHED.dropsPerSite, ...maps.map((m) => m.userMysekaiSiteHarvestResourceDrops.length)),
    fixturesPerSite: Math.max(DENSEST_PUBLISHED.spotsPerSite, ...maps.map((m) => m.userMysekaiSiteHarvestFixtures.length)),
    values: Math.max(DENSEST_PUBLISHED.values, tree.values),
    depth: Math.max(DENSEST_PUBLISHED.depth, tree.depth),
    arrayLength: tree.longestArray,
  };
  expect(tree.values).toBeGreaterThan(20_000); // the measure is the scan's, not a smaller one
  expect(real.dropsPerSite * 4).toBeLessThanOrEqual(SAVE_LIMITS.dropsPerSite);
  expect(real.fixturesPerSite * 4).toBeLessThanOrEqual(SAVE_LIMITS.fixturesPerSite);
  expect(real.values * 4).toBeLessThanOrEqual(MSGPACK_LIMITS.values);
  expect(real.depth * 4).toBeLessThanOrEqual(MSGPACK_LIMITS.depth);
  expect(real.arrayLength * 4).toBeLessThanOrEqual(MSGPACK_LIMITS.arrayLength);
});
