/**
 * Both forms of the harvest records (src/save/positional.ts): the real CN save as the game sent it and rewritten
 * by position (CN client 6.4.0) open to the same typed save, the same maps and the object form's JSON; a broken
 * positional record, or harvest maps none of which can be read, make the save unreadable with the reason.
 */
import { describe, expect, test } from "bun:test";
import { buildOverviewSvg, buildSiteSvg, describeSave, formatRareText, summaryJson, type OutputsContext } from "../../src/maps/index.ts";
import { openSave, parseKeyPairs, type OpenedSave } from "../../src/save/index.ts";
import { runEvaluate } from "../../src/pipeline/tasks.ts";
import { randomKeyPair } from "../../src/samples/index.ts";
import { harvestMapsOf, positionalRealSave, realSave, restoredRealSave } from "../helpers/real-save.ts";
import { encryptRaw } from "../helpers/saves.ts";

const pair = randomKeyPair();
const keys = parseKeyPairs({ AES_KEY: pair.keyText, AES_IV: pair.ivText });
const open = (raw: unknown) => openSave(encryptRaw(pair, raw), keys, { json: true });
const ctx: OutputsContext = { playerId: "7000000000000000001", capturedAt: new Date("2026-03-23T10:31:37Z"), locale: "zh-Hans", showHarvested: false, timeZone: "Asia/Shanghai" };

function opened(result: OpenedSave) {
  if (result.kind !== "save") throw new Error(`not a save: ${JSON.stringify(result)}`);
  return result;
}

describe("the real save in both forms", () => {
  const named = opened(open(realSave()));
  const positional = opened(open(positionalRealSave()));

  test("the same typed save: 4 sites, 161 harvest points, 695 drops", () => {
    expect(positional.save).toEqual(named.save);
    expect(named.save.sites.map((s) => [s.siteId, s.fixtures.length, s.drops.length])).toEqual([[5, 35, 190], [6, 32, 169], [7, 64, 230], [8, 30, 106]]);
  });

  test("the same maps, summary and rare text", () => {
    const a = describeSave(named.save, ctx);
    const b = describeSave(positional.save, ctx);
    expect(buildOverviewSvg(b, null)).toBe(buildOverviewSvg(a, null));
    for (const site of a.sites) expect(buildSiteSvg(b, site.siteId, null)).toBe(buildSiteSvg(a, site.siteId, null));
    expect(summaryJson(b)).toEqual(summaryJson(a));
    expect(summaryJson(b).sites.map((s) => s.siteId)).toEqual([5, 6, 7, 8]);
    expect(formatRareText(b)).toBe(formatRareText(a));
    expect(formatRareText(b)).toContain("月光石");
  });

  test("the data API's JSON is the object form: with the group ids' explicit nulls, or byte for byte when they were left out", () => {
    expect(JSON.parse(positional.json!)).toEqual(restoredRealSave());
    expect(opened(open(positionalRealSave({ groupIds: "absent" }))).json).toBe(named.json!);
  });
});

describe("positional records", () => {
  const fixture = [1001, 6, 9, 90, "spawned", null];
  const drop = ["mysekai_material", 1, 6, 9, 1, 1, "before_drop", 1, null];
  const saveOf = (maps: unknown[]) => ({ updatedResources: { now: 1, userMysekaiHarvestMaps: maps } });

  test("positions past the layout are kept in _msgpackExtra; mixed lists and named maps of positional rows read", () => {
    const result = opened(open(saveOf([[5, [[...fixture, 7, "future"]], [drop]], { mysekaiSiteId: 6, userMysekaiSiteHarvestFixtures: [fixture], userMysekaiSiteHarvestResourceDrops: [drop, { resourceType: "mysekai_material", resourceId: 2, positionX: 1, positionZ: 2, mysekaiSiteHarvestResourceDropStatus: "before_drop" }] }])));
    expect(result.save.sites.map((s) => [s.siteId, s.fixtures.length, s.drops.length])).toEqual([[5, 1, 1], [6, 1, 2]]);
    const maps = (JSON.parse(result.json!) as { updatedResources: { userMysekaiHarvestMaps: any[] } }).updatedResources.userMysekaiHarvestMaps;
    expect(maps[0].userMysekaiSiteHarvestFixtures[0]).toEqual({ mysekaiSiteHarvestFixtureId: 1001, positionX: 6, positionZ: 9, hp: 90, userMysekaiSiteHarvestFixtureStatus: "spawned", mysekaiSiteHarvestSpawnLimitedRelationGroupId: null, _msgpackExtra: [7, "future"] });
    expect(maps[1].userMysekaiSiteHarvestResourceDrops[0].mysekaiSiteHarvestResourceDropStatus).toBe("before_drop");
  });

  test("a missing required position or a wrong type: the save is unreadable, the reason names the record", () => {
    const cases: [unknown[], string][] = [
      [[[5, [fixture]]], "harvest records cannot be read: harvest map 0: position 2 (userMysekaiSiteHarvestResourceDrops) is missing"],
      [[["5", [], [drop]]], "harvest map 0: position 0 (mysekaiSiteId) is not an integer"],
      [[[5, [fixture], [drop, drop.slice(0, 6)]]], "site 5 drop 1: position 6 (mysekaiSiteHarvestResourceDropStatus) is missing"],
      [[[5, [[1001, 6, 9, 90, 3]], [drop]]], "site 5 harvest point 0: position 4 (userMysekaiSiteHarvestFixtureStatus) is not a string"],
      [[[5, [], [["mysekai_material", 1, 6, 9, 1, 1, "before_drop", 1, "x"]]]], "site 5 drop 0: position 8 (mysekaiSiteHarvestSpawnLimitedRelationGroupId) is not an integer or null"],
    ];
    for (const [maps, reason] of cases) {
      const result = open(saveOf(maps));
      expect(result.kind).toBe("unreadable");
      expect("reason" in result && result.reason).toContain(reason);
    }
  });

  test("harvest maps none of which can be read, or a site none of whose drops can be read: unreadable, never 'nothing rare'", () => {
    const save = realSave();
    for (const map of harvestMapsOf(save)) map.mysekaiSiteId = "site";
    expect(open(save)).toEqual({ kind: "unreadable", reason: "harvest records cannot be read: none of the 4 harvest maps could be read" });
    const drops = realSave();
    for (const row of harvestMapsOf(drops)[1]!.userMysekaiSiteHarvestResourceDrops as Record<string, unknown>[]) delete row.resourceType;
    expect(open(drops)).toEqual({ kind: "unreadable", reason: "harvest records cannot be read: none of the 169 drops of site 6 could be read" });
  });

  test("a report's unreadable body is kept as its save (then failed with the reason), never dropped as 'no save'", () => {
    const body = encryptRaw(pair, saveOf([[5, [fixture], [drop.slice(0, 3)]]]));
    expect(runEvaluate({ bodies: [body], keys })).toEqual({ save: 0, partial: null, decryptedAny: true });
  });

  test("a partial refresh (no harvest maps) is still a partial refresh", () => {
    expect(open(saveOf([])).kind).toBe("partial");
  });
});
