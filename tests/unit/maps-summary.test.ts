import { describe, expect, test } from "bun:test";
import { describeSave, formatRareText, summaryFile, summaryJson, type OutputsContext } from "../../src/maps/index.ts";
import type { MySekaiSave } from "../../src/save/model.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";

const ctx: OutputsContext = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans", showHarvested: false };
const buildSummary = (s: MySekaiSave, c: OutputsContext) => summaryJson(describeSave(s, c));

function fixedSave() {
  return save(
    [
      site(6, [
        material(12, 2, 2, 2),
        material(20, 3, 3, 1, true), // harvested: not counted
        drop("mysekai_music_record", 7, 4, 4),
        drop("mysekai_music_record", 8, 5, 5),
      ]),
      site(5, [material(12, 0, 0), material(33, 1, 1, 2), material(1, 1, 1, 3)]),
    ],
    [8],
  );
}

describe("summary", () => {
  test("groups by (type, id): mysekai_item 5 and mysekai_material 5 on one spot stay apart", () => {
    const s = save([
      site(5, [material(5, 1, 1, 1), drop("mysekai_item", 5, 1, 1, 2), material(5, 1, 1, 2), material(1, 1, 1, 1), material(1, 1, 1, 2)]),
    ]);
    const resources = buildSummary(s, ctx).sites[0]!.resources;
    const byKey = Object.fromEntries(resources.map((r) => [r.key, r]));
    expect(byKey["mysekai_material:5"]!.total).toBe(3);
    expect(byKey["mysekai_material:5"]!.tier).toBe("super");
    expect(byKey["mysekai_item:5"]!.total).toBe(2);
    expect(byKey["mysekai_item:5"]!.tier).toBe("common");
    expect(byKey["mysekai_material:1"]!.positions).toEqual([{ x: 1, z: 1, quantity: 3 }]);
    expect(resources.map((r) => r.key)).toEqual(["mysekai_material:5", "mysekai_material:1", "mysekai_item:5"]);
  });

  test("sites by id, totals across sites, rare finds, new music records, harvested not counted", () => {
    const summary = buildSummary(fixedSave(), ctx);
    expect(summary.playerId).toBe("7412589630147258963");
    expect(summary.capturedAt).toBe("2025-03-01T00:30:00.000Z");
    expect(summary.saveTime).toBe("2025-03-01T00:30:00.000Z");
    expect(summary.sites.map((s) => [s.siteId, s.name])).toEqual([
      [5, "初始空地"],
      [6, "心愿沙滩"],
    ]);
    expect(summary.rareFinds.map((r) => [r.key, r.tier, r.total, r.sites])).toEqual([
      ["mysekai_material:12", "super", 3, [5, 6]],
      ["mysekai_material:33", "rare", 2, [5]],
    ]);
    expect(summary.rareFinds[0]!.positions).toEqual([
      { siteId: 5, x: 0, z: 0, quantity: 1 },
      { siteId: 6, x: 2, z: 2, quantity: 2 },
    ]);
    expect(summary.newMusicRecords).toEqual([7]);
    expect(summary.totals.find((t) => t.key === "mysekai_material:20")).toBeUndefined();
    const records = summary.sites[1]!.resources.filter((r) => r.type === "mysekai_music_record");
    expect(records.map((r) => [r.name, r.musicRecord])).toEqual([
      ["唱片「快乐万岁」", "new"],
      ["唱片「Nostalogic」", "owned"],
    ]);
  });

  test("key order of summary.json is stable", () => {
    const summary = buildSummary(fixedSave(), ctx);
    expect(Object.keys(summary)).toEqual([
      "playerId", "capturedAt", "saveTime", "hasHarvestMaps", "dataType", "birthdayParties", "sites", "totals", "rareFinds", "newMusicRecords", "musicRecords", "repeatOf",
    ]);
    expect(Object.keys(summary.sites[0]!.resources[0]!)).toEqual([
      "type", "id", "key", "name", "tier", "musicRecord", "title", "find", "spawnGroup", "total", "positions",
    ]);
    expect(JSON.stringify(buildSummary(fixedSave(), ctx))).toBe(JSON.stringify(summary));
  });

  test("one shape for full and partial saves: the same keys, a partial one without harvest maps and with empty lists", () => {
    const full = buildSummary(fixedSave(), ctx);
    const partial = buildSummary({ ...save([]), hasHarvestMaps: false }, ctx);
    expect(Object.keys(partial)).toEqual(Object.keys(full));
    expect(partial).toEqual({
      playerId: ctx.playerId,
      capturedAt: "2025-03-01T00:30:00.000Z",
      saveTime: "2025-03-01T00:30:00.000Z",
      hasHarvestMaps: false,
      dataType: "mysekai",
      birthdayParties: [],
      sites: [],
      totals: [],
      rareFinds: [],
      newMusicRecords: [],
      musicRecords: [],
      repeatOf: null,
    });
    expect(full.hasHarvestMaps).toBe(true);
    const file = summaryFile(describeSave(fixedSave(), ctx));
    expect(JSON.parse(new TextDecoder().decode(file.bytes))).toEqual(JSON.parse(JSON.stringify(full)));
  });

  test("unknown resources keep a readable label in the map's language, and are finds", () => {
    const summary = buildSummary(save([site(5, [material(999, 0, 0, 4), drop("mysekai_widget", 3, 0, 0)])]), ctx);
    expect(summary.totals.map((t) => [t.name, t.total, t.find])).toEqual([
      ["未知材料 #999", 4, "unknown"],
      ["未知资源 #3", 1, "unknown"],
    ]);
    expect(summary.rareFinds.map((f) => f.key)).toEqual(["mysekai_material:999", "mysekai_widget:3"]);
  });
});

describe("rare_resources.txt", () => {
  test("exact text of a fixed save (zh, Asia/Shanghai)", () => {
    const text = formatRareText(describeSave(fixedSave(), { ...ctx, timeZone: "Asia/Shanghai" }));
    expect(text).toBe(
      [
        "MySekai 稀有资源 · 7412589630147258963",
        "初始空地",
        "  ★ 钻石 ×1",
        "  ◆ 月光石 ×2",
        "心愿沙滩",
        "  ★ 钻石 ×2",
        "  ● 唱片「快乐万岁」 NEW ×1",
        "存档时间 2025-03-01 08:30 UTC+8",
        "",
      ].join("\n"),
    );
  });

  test("exact text in English, default UTC", () => {
    expect(formatRareText(describeSave(fixedSave(), { ...ctx, locale: "en" }))).toBe(
      [
        "MySekai rare resources · 7412589630147258963",
        "Fledgling Field",
        "  ★ Diamond ×1",
        "  ◆ Moonstone ×2",
        "Wisher's Cove",
        "  ★ Diamond ×2",
        "  ● Music record “Viva Happy” NEW ×1",
        "Data time 2025-03-01 00:30 UTC",
        "",
      ].join("\n"),
    );
  });

  test("nothing rare says so", () => {
    const outputs = describeSave(save([site(5, [material(1, 0, 0, 3)])], []), { ...ctx, locale: "ja", timeZone: "Asia/Tokyo" });
    expect(formatRareText(outputs)).toBe(
      "MySekai レア素材 · 7412589630147258963\n今日はレア素材がありません\nデータ時刻 2025-03-01 09:30 UTC+9\n",
    );
  });

  test("a partial refresh without harvest maps says so", () => {
    const partial = { ...save([]), hasHarvestMaps: false };
    expect(formatRareText(describeSave(partial, ctx))).toBe(
      "MySekai 稀有资源 · 7412589630147258963\n存档中没有采集地图\n存档时间 2025-03-01 00:30 UTC\n",
    );
  });
});
