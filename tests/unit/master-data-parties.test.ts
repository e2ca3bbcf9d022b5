/**
 * The generator's party rule (scripts/master-data): a party of ids outside lunabot's list (a 2026 party's material
 * 297 and flower 99) makes both top tier, puts material 297 in the catalogue (no id list names it), writes the party
 * into `parties` (with its delivery rewards' requirements, ascending) and says in `tierDifferences` where the rule
 * and the list differ.
 */
import { expect, test } from "bun:test";
import { buildCatalogue } from "../../src/catalogue/master-data/catalogue.ts";
import type { Servers } from "../../src/catalogue/master-data/names.ts";
import { REGIONS, type Region, type Row, type Server } from "../../src/catalogue/master-data/read.ts";

const GIVEN: Record<Region, string> = { jp: "遥", en: "Haruka", cn: "遥", tw: "遙", kr: " 하루카" };

function server(region: Region): Server {
  const files: Record<string, Row[]> = {
    "gameCharacters.json": [{ id: 6, givenName: GIVEN[region] }],
    "gameCharacterUnits.json": [{ id: 6, gameCharacterId: 6 }],
    "materials.json": [{ id: 297, name: `dew-${region}`, materialType: "birthday_party_delivery" }, { id: 200, name: `piece-${region}`, materialType: "common" }],
    "mysekaiMaterials.json": [{ id: 99, name: `flower-${region}`, mysekaiMaterialType: "birthday_party" }, { id: 1, name: `wood-${region}`, mysekaiMaterialType: "wood" }],
    "birthdayParties.json":
      region === "jp"
        ? [{ id: 30, gameCharacterUnitId: 6, birthdayStartAt: 1_808_000_000_000, deliveryItemMaterialId: 297, deliveryRewardMysekaiMaterialId: 99, mysekaiSiteHarvestSpawnLimitedRelationGroupId: 2706, assetbundleName: "haruka_2027", mysekaiSiteHarvestFixtureId: 8030 }]
        : [],
    "birthdayPartyDeliveryTotalRewards.json": region === "jp" ? [{ id: 1, birthdayPartyId: 30, requirement: 400 }, { id: 2, birthdayPartyId: 30, requirement: 2 }, { id: 3, birthdayPartyId: 31, requirement: 9 }] : [],
  };
  return { region, repo: `test/${region}`, commit: "0".repeat(40), dataVersion: "1.0.0.0", rows: (file) => new Map((files[file] ?? []).map((row) => [row.id, row])) };
}

test("a party's materials are top tier whatever their ids; the party and the differences are in the catalogue", () => {
  const servers = Object.fromEntries(REGIONS.map((r) => [r, server(r)])) as Servers;
  const catalogue = buildCatalogue(servers);
  const tier = (type: string, id: number) => (catalogue.resources as { type: string; id: number; tier: string }[]).find((r) => r.type === type && r.id === id)?.tier;
  expect(tier("material", 297)).toBe("super");
  expect(tier("mysekai_material", 99)).toBe("super");
  expect(tier("mysekai_material", 1)).toBe("common");
  expect(catalogue.parties).toEqual([
    {
      id: 30,
      assetbundleName: "haruka_2027",
      characterId: 6,
      character: { ja: "遥", en: "Haruka", zh: "遥", "zh-Hant": "遙", ko: "하루카" },
      year: 2027,
      spawnGroupId: 2706,
      harvestFixtureId: 8030,
      materials: [{ type: "material", id: 297 }, { type: "mysekai_material", id: 99 }],
      deliveryTotalRewards: [2, 400],
    },
  ]);
  expect(catalogue.tierDifferences).toEqual([
    { type: "mysekai_material", id: 99, list: "common", rule: "super", tier: "super", note: "a birthday party names it; lunabot's list does not rate it top tier" },
    { type: "material", id: 200, list: "super", rule: null, tier: "super", note: "in lunabot's birthday range; no birthday party names it (yet): the list's tier is kept" },
    { type: "material", id: 297, list: "common", rule: "super", tier: "super", note: "a birthday party names it; lunabot's list does not rate it top tier" },
  ]);
});
