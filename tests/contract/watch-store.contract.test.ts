/** The watch store's contract, the same tests on SQLite's and a hub's PostgreSQL store (two stores on one database: two processes). */
import { beforeEach, expect, test } from "bun:test";
import type { WatchMatch } from "../../src/store/model/watch.ts";
import { MAX_RULES } from "../../src/store/model/watch.ts";
import type { WatchStore } from "../../src/store/ports/watch.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const PLAYER = "7485938820123456789";
const OTHER = "1234567890123456789";
const T0 = 1_700_000_000_000;
const match = (resource: string, count: number): WatchMatch => ({ resource, name: resource, siteId: 6, siteName: "Wisher's Cove", count });

describeEachStore("watch store", (s) => {
  let store: WatchStore;
  beforeEach(() => void (store = s.stores.watch));
  const another = async () => (await s.another()).watch;
  const save = (playerId: string) => s.rows.save({ playerId });

  test("add keeps existing rules, counts the new ones; remove counts what it removed; list orders by player and resource", async () => {
    expect(await store.add(PLAYER, ["mysekai_material:33", "mysekai_material:12"], T0)).toBe(2);
    expect(await store.add(PLAYER, ["mysekai_material:12", "mysekai_material:5", "mysekai_material:5"], T0 + 1)).toBe(1);
    expect(await store.add("*", ["mysekai_material:20"], T0)).toBe(1);
    expect((await store.list()).map((r) => `${r.playerId} ${r.resource}`)).toEqual(["* mysekai_material:20", `${PLAYER} mysekai_material:12`, `${PLAYER} mysekai_material:33`, `${PLAYER} mysekai_material:5`]);
    expect((await store.list(PLAYER)).find((r) => r.resource === "mysekai_material:12")!.createdAt).toBe(T0);
    expect(await store.remove(PLAYER, ["mysekai_material:33", "mysekai_material:99"])).toBe(1);
    expect(await store.remove(PLAYER, [])).toBe(0);
    expect([...(await store.watchedBy(PLAYER))].sort()).toEqual(["mysekai_material:12", "mysekai_material:20", "mysekai_material:5"]);
    expect([...(await store.watchedBy(OTHER))]).toEqual(["mysekai_material:20"]);
  });

  test("a player holds at most MAX_RULES rules: past it nothing of the call is added, on either process", async () => {
    const many = Array.from({ length: MAX_RULES - 1 }, (_, i) => `material:${i}`);
    expect(await store.add(PLAYER, many)).toBe(MAX_RULES - 1);
    expect(await (await another()).add(PLAYER, ["material:9998", "material:9999"])).toBe("too_many");
    expect(await store.add(PLAYER, ["material:9998"])).toBe(1);
    expect((await store.list(PLAYER)).length).toBe(MAX_RULES);
    expect(await store.add(OTHER, ["material:1"])).toBe(1);
  });

  test("processes adding for one player at once never pass MAX_RULES together: one call lands, the others are too_many", async () => {
    expect(await store.add(PLAYER, Array.from({ length: MAX_RULES - 2 }, (_, i) => `material:${i}`))).toBe(MAX_RULES - 2);
    const others = await Promise.all(Array.from({ length: 4 }, () => another()));
    const outcomes = await Promise.all([store, ...others].map((each, i) => each.add(PLAYER, [`material:a${i}`, `material:b${i}`])));
    expect(outcomes.filter((outcome) => outcome === 2).length).toBe(1);
    expect((await store.list(PLAYER)).length).toBe(MAX_RULES);
  });

  test("the page's form sets exactly the ticked ones among those offered, and leaves the rest alone", async () => {
    await store.add(PLAYER, ["mysekai_material:12", "mysekai_material:1"]);
    await store.setTicked(PLAYER, ["mysekai_material:12", "mysekai_material:33", "material:174"], ["mysekai_material:33", "material:174", "material:999"]);
    expect((await store.list(PLAYER)).map((r) => r.resource).sort()).toEqual(["material:174", "mysekai_material:1", "mysekai_material:33"]);
    await store.setTicked(PLAYER, ["mysekai_material:33", "material:174"], []);
    expect((await store.list(PLAYER)).map((r) => r.resource)).toEqual(["mysekai_material:1"]);
  });

  test("matches: recorded per save (again: replaced), none for an empty list, read back by save id from another process", async () => {
    const [a, b, c] = [await save(PLAYER), await save(PLAYER), await save(OTHER)];
    await store.recordMatches(a, PLAYER, [match("mysekai_material:33", 2)], T0);
    await store.recordMatches(a, PLAYER, [match("mysekai_material:33", 3), match("mysekai_material:12", 1)], T0 + 1);
    await store.recordMatches(b, PLAYER, [], T0);
    await store.recordMatches(c, OTHER, [match("mysekai_material:20", 1)], T0);
    const read = await (await another()).matchesOf([a, b, c, 999]);
    expect([...read.keys()].sort()).toEqual([a, c].sort());
    expect(read.get(a)).toEqual([match("mysekai_material:33", 3), match("mysekai_material:12", 1)]);
    expect((await store.matchesOf([])).size).toBe(0);
  });
});
