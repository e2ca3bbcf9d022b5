/**
 * Gathering a month of spawns is bounded: a crafted save whose "rare" drops lie on tens of thousands of distinct
 * spots costs a bounded, linear pass (it once copied each site's list per spot: quadratic), and reads no more than
 * MAX_POSITIONS positions of the month.
 */
import { expect, test } from "bun:test";
import type { RareFind } from "../../src/maps/summary.ts";
import { MAX_POSITIONS, spawnSpots } from "../../src/spawns/collect.ts";

const find = (positions: number): RareFind => ({
  type: "mysekai_material",
  id: 12,
  key: "mysekai_material:12",
  name: "Diamond",
  find: null,
  spawnGroup: null,
  tier: "super",
  total: positions,
  sites: [5],
  positions: Array.from({ length: positions }, (_, i) => ({ siteId: 5, x: i % 1000, z: Math.floor(i / 1000), quantity: 1 }) as RareFind["positions"][number]),
});

test("a month of crafted finds on 200,000 distinct spots: at most MAX_POSITIONS read, in well under a second", () => {
  const refreshes = [1, 2, 3, 4].map((day) => ({ receivedAt: day * 86_400_000, rareFinds: [find(50_000)] }));
  const started = performance.now();
  const bySite = spawnSpots(refreshes, 0);
  const spots = bySite.get(5)!;
  expect(spots.reduce((n, spot) => n + spot.finds.length, 0)).toBe(MAX_POSITIONS);
  expect(performance.now() - started).toBeLessThan(1_000);
});

test("every find is kept per spot, newest first, spots with the most finds first", () => {
  const at = (day: number, x: number) => ({ receivedAt: day, rareFinds: [{ ...find(0), positions: [{ siteId: 6, x, z: 0, quantity: 2 }] as RareFind["positions"] }] });
  const bySite = spawnSpots([at(1, 3), at(2, 3), at(3, 7), at(0, 9)], 1);
  expect(bySite.get(6)!.map((spot) => [spot.x, spot.finds.map((f) => f.at)])).toEqual([[3, [2, 1]], [7, [3]]]);
});
