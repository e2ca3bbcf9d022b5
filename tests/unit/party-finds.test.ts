/**
 * Issue 44, points 1 and 2 on the real CN save (tests/fixtures/real): a party-limited 2026 material (material 297 of
 * spawn group 2630, which no party in the catalogue knows), a miku_2026 dew (group 2621, a party the catalogue
 * knows), an unknown mysekai_material 150 and a drop of the unknown type mysekai_blueprint, in the object form and in
 * CN 6.4.0's positional form: each is a find in the map's band and legend (named in the map's language, no English
 * on a Chinese map), in rare_resources.txt and summary.json, and the party's harvest point is drawn as one.
 */
import { describe, expect, test } from "bun:test";
import { catalogResources, partyBySpawnGroup } from "../../src/maps/catalog.ts";
import { buildSiteSvg, describeSave, formatRareText, summaryJson, type Locale } from "../../src/maps/index.ts";
import { toMySekaiSave } from "../../src/save/parse.ts";
import { harvestMapsOf, MIKU_2026_GROUP, partyFindsSave, positionalRealSave, UNKNOWN_PARTY_GROUP } from "../helpers/real-save.ts";

/** partyFindsSave with a second harvest point of miku_2026 (at 5, 12 on site 6) on which no party drop lies. */
function withBarePartyPoint(): Record<string, unknown> {
  const save = partyFindsSave();
  const site = harvestMapsOf(save).find((map) => map.mysekaiSiteId === 6)!;
  const point = (site.userMysekaiSiteHarvestFixtures as Record<string, unknown>[]).find((f) => f.positionX === 5 && f.positionZ === 12)!;
  point.mysekaiSiteHarvestSpawnLimitedRelationGroupId = MIKU_2026_GROUP;
  return save;
}

const FORMS = {
  object: () => partyFindsSave(),
  positional: () => positionalRealSave({ from: partyFindsSave() }),
};
const BARE_POINT_FORMS = {
  object: () => withBarePartyPoint(),
  positional: () => positionalRealSave({ from: withBarePartyPoint() }),
};

function outputs(tree: unknown, locale: Locale = "zh-Hans") {
  const save = toMySekaiSave(tree);
  if (save === null) throw new Error("not a save");
  return describeSave(save, { playerId: "7000000000000000001", capturedAt: new Date("2026-03-23T10:31:00Z"), locale, showHarvested: false, timeZone: "Asia/Shanghai" });
}

/** The text of every <text> element of an SVG. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

describe("the catalogue's parties and the rule", () => {
  test("every material a party names is top tier, and the catalogue knows JP's parties through miku_2026", () => {
    const miku = partyBySpawnGroup(MIKU_2026_GROUP);
    expect(miku?.assetbundleName).toBe("miku_2026");
    expect(miku?.year).toBe(2026);
    expect(partyBySpawnGroup(UNKNOWN_PARTY_GROUP)).toBeNull();
    const tiers = new Map(catalogResources().map((r) => [`${r.type}:${r.id}`, r.tier]));
    for (const material of miku!.materials) expect(tiers.get(`${material.type}:${material.id}`)).toBe("super");
  });
});

for (const [form, tree] of Object.entries(FORMS)) {
  describe(`${form} form`, () => {
    test("the save model carries the spawn group on the drop and on its harvest point", () => {
      const save = toMySekaiSave(tree())!;
      const site = save.sites.find((s) => s.siteId === 6)!;
      expect(site.drops.slice(0, 4).map((d) => d.spawnGroup)).toEqual([UNKNOWN_PARTY_GROUP, null, null, MIKU_2026_GROUP]);
      expect(site.fixtures.filter((f) => f.spawnGroup !== null).map((f) => f.spawnGroup)).toEqual([UNKNOWN_PARTY_GROUP]);
      expect(site.drops.slice(4).every((d) => d.spawnGroup === null)).toBe(true);
    });

    test("zh-Hans: each is a find in the band and the legend, named in Chinese, and no English on the map", () => {
      const model = outputs(tree());
      const svg = buildSiteSvg(model, 6);
      const chips = [...svg.matchAll(/<g class="chip">.*?<text[^>]*>([^<]*)<\/text>/gs)].map((m) => m[1]);
      expect(chips).toContain("★ 生日派对限定 · 未知材料 #297 ×1");
      expect(chips).toContain("★ 未来 2026 生日派对 · 庆典甘露（蓝绿色） ×1");
      expect(chips).toContain("◆ 未知材料 #150 ×1");
      expect(chips).toContain("◆ 未知设计图 #3 ×1");
      const all = texts(svg);
      // The legend lists them with the same names, and the harvest point of the party as a party's.
      for (const name of ["生日派对限定 · 未知材料 #297 ×1", "未知材料 #150 ×1", "未知设计图 #3 ×1"]) expect(all).toContain(name);
      expect(svg).toContain('class="fx-party"');
      expect(svg).toMatch(/<g class="legend-harvest-point" data-kind="party">/);
      // No Latin words anywhere on the Chinese map (the player id and times are digits; "UTC+8" names the zone).
      expect(all.filter((t) => /[A-Za-z]{2,}/.test(t.replace(/UTC[+-]\d+(?::\d\d)?/g, "")))).toEqual([]);
    });

    test("rare_resources.txt and summary.json name them; the party one is top tier with its group", () => {
      const model = outputs(tree());
      const text = formatRareText(model);
      expect(text).toContain("  ★ 生日派对限定 · 未知材料 #297 ×1");
      expect(text).toContain("  ★ 未来 2026 生日派对 · 庆典甘露（蓝绿色） ×1");
      expect(text).toContain("  ◆ 未知材料 #150 ×1");
      expect(text).toContain("  ◆ 未知设计图 #3 ×1");
      const finds = summaryJson(model).rareFinds.map((f) => ({ key: f.key, tier: f.tier, find: f.find, spawnGroup: f.spawnGroup }));
      expect(finds).toContainEqual({ key: "mysekai_material:297", tier: "super", find: "party", spawnGroup: UNKNOWN_PARTY_GROUP });
      expect(finds).toContainEqual({ key: "material:194", tier: "super", find: "party", spawnGroup: MIKU_2026_GROUP });
      expect(finds).toContainEqual({ key: "mysekai_material:150", tier: "rare", find: "unknown", spawnGroup: null });
      expect(finds).toContainEqual({ key: "mysekai_blueprint:3", tier: "rare", find: "unknown", spawnGroup: null });
    });

    test("a party's harvest point with no party drop on it is a find of its own; the drop count stays the drops'", () => {
      const plain = outputs(tree());
      const model = outputs(BARE_POINT_FORMS[form as keyof typeof BARE_POINT_FORMS]());
      const svg = buildSiteSvg(model, 6);
      expect(svg).toContain(">★ 未来 2026 生日派对 · 采集点 ×1<");
      expect(formatRareText(model)).toContain("  ★ 未来 2026 生日派对 · 采集点 ×1");
      const dropCount = (text: string) => /掉落 (\d+)</.exec(text)![1];
      expect(dropCount(svg)).toBe(dropCount(buildSiteSvg(plain, 6)));
      // The party point that holds the party's drops is not counted again.
      expect(summaryJson(model).rareFinds.filter((f) => f.type === "mysekai_site_harvest_fixture").map((f) => f.positions)).toEqual([[{ siteId: 6, x: 5, z: 12, quantity: 1 }]]);
    });

    test("every language names the party and the unknown ids in its own words", () => {
      const expected: Record<Locale, string[]> = {
        "zh-Hans": ["生日派对限定 · 未知材料 #297", "未知设计图 #3"],
        "zh-Hant": ["生日派對限定 · 未知材料 #297", "未知設計圖 #3"],
        ja: ["バースデーパーティー限定 · 未知のマイセカイ素材 #297", "未知の設計図 #3", "ミク 2026 バースデーパーティー · "],
        ko: ["생일 파티 한정 · 알 수 없는 마이세카이 재료 #297", "알 수 없는 설계도 #3"],
        en: ["Birthday party spawn · Unknown MySekai material #297", "Unknown blueprint #3", "Miku 2026 party · "],
      };
      for (const [locale, names] of Object.entries(expected) as [Locale, string[]][]) {
        const text = formatRareText(outputs(tree(), locale));
        for (const name of names) expect({ locale, has: text.includes(name) }).toEqual({ locale, has: true });
      }
    });
  });
}
