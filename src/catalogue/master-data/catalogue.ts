/** Builds src/maps/data/catalog.json from the five servers' master data and curation.ts. */
import {
  HARVEST_MATERIAL_IDS,
  LUNABOT_TIERS,
  SITE_GEOMETRY,
  SITE_GEOMETRY_CONVENTION,
  SITE_GEOMETRY_SOURCE,
  PARTY_NOTE,
  TIER_RULE,
} from "./curation.ts";
import { buildNames, type Names, type SeriesMember, type Servers } from "./names.ts";
import { buildParties, partyMaterialKeys } from "./parties.ts";
import { LANG_REGION, REGIONS, text, type Server } from "./read.ts";

export const FILE_BY_TYPE: Record<string, string> = {
  site: "mysekaiSites.json",
  mysekai_material: "mysekaiMaterials.json",
  mysekai_item: "mysekaiItems.json",
  mysekai_fixture: "mysekaiFixtures.json",
  material: "materials.json",
  phenomena: "mysekaiPhenomenas.json",
};

/** A resource's, site's or phenomenon's name on one server (`key`: `<type>:<id>`), or null where it has none. */
export function readName(server: Server, key: string): string | null {
  const [type, id] = key.split(":") as [string, string];
  return text(server.rows(FILE_BY_TYPE[type]!).get(Number(id)), "name");
}

function inLunabotList(list: string[], type: string, id: number): boolean {
  return list.some((k) => {
    const [, t, from, to] = /^(.+)_(\d+)(?:~(\d+))?$/.exec(k) ?? [];
    return t === type && id >= Number(from) && id <= Number(to ?? from);
  });
}

type Tier = "super" | "rare" | "common";

function listTier(type: string, id: number): Tier | null {
  if (inLunabotList(LUNABOT_TIERS.super, type, id)) return "super";
  if (inLunabotList(LUNABOT_TIERS.rare, type, id)) return "rare";
  return null;
}

/** The tier by rule first (a party's material is top tier), then lunabot's list, then the weather rule. */
function tierOf(type: string, id: number, row: Record<string, unknown>, partyMaterials: ReadonlySet<string>): Tier {
  if (partyMaterials.has(`${type}:${id}`)) return "super";
  const listed = listTier(type, id);
  if (listed) return listed;
  if (type === "mysekai_material" && row.mysekaiPhenomenaGroupId != null) return "rare";
  return "common";
}

/** lunabot's ranges (`type_min~max`): its birthday series, written as id ranges. */
function inListedRange(type: string, id: number): boolean {
  return inLunabotList(LUNABOT_TIERS.super.filter((k) => k.includes("~")), type, id);
}

/**
 * Where the party rule and lunabot's list differ: a party's material the list does not rate top tier (the rule
 * wins), and an id of the list's birthday ranges no party names (the list's tier is kept).
 */
function tierDifference(type: string, id: number, partyMaterials: ReadonlySet<string>) {
  const listed = listTier(type, id);
  const byRule = partyMaterials.has(`${type}:${id}`);
  if (byRule && listed !== "super") return { type, id, list: listed ?? "common", rule: "super", tier: "super", note: "a birthday party names it; lunabot's list does not rate it top tier" };
  if (!byRule && inListedRange(type, id)) return { type, id, list: "super", rule: null, tier: "super", note: "in lunabot's birthday range; no birthday party names it (yet): the list's tier is kept" };
  return null;
}

/** Birthday flowers and dews by character, from the JP birthday parties; checked against the id offsets they follow. */
function seriesMembers(jp: Server): Map<string, SeriesMember> {
  const members = new Map<string, SeriesMember>();
  const characterOfUnit = (unitId: number) => jp.rows("gameCharacterUnits.json").get(unitId)?.gameCharacterId as number;
  for (const party of jp.rows("birthdayParties.json").values()) {
    const characterId = characterOfUnit(party.gameCharacterUnitId as number);
    members.set(`mysekai_material:${party.deliveryRewardMysekaiMaterialId}`, { series: "flower", characterId });
    members.set(`material:${party.deliveryItemMaterialId}`, { series: "dew", characterId });
  }
  // The first series' ids follow the character ids (flowers 67-92, dews 174-199); later ones (2026 on) do not, so
  // past those ranges only a party names a member's character.
  for (const m of jp.rows("mysekaiMaterials.json").values()) {
    if (m.mysekaiMaterialType === "birthday_party" && m.id <= 92) add(members, `mysekai_material:${m.id}`, { series: "flower", characterId: m.id - 66 });
  }
  for (const m of jp.rows("materials.json").values()) {
    if (m.materialType === "birthday_party_delivery" && m.id <= 199) add(members, `material:${m.id}`, { series: "dew", characterId: m.id - 173 });
  }
  return members;
}

function add(members: Map<string, SeriesMember>, key: string, member: SeriesMember): void {
  const known = members.get(key);
  if (known && known.characterId !== member.characterId) {
    throw new Error(`${key}: birthday party says character ${known.characterId}, the id offset ${member.characterId}`);
  }
  members.set(key, member);
}

export function buildCatalogue(servers: Servers) {
  const jp = servers.jp;
  const members = seriesMembers(jp);
  const names = (key: string): Names => buildNames(key, servers, readName, members);
  const parties = buildParties(servers);
  const partyMaterials = partyMaterialKeys(parties);

  const sites = [...jp.rows("mysekaiSites.json").values()]
    .filter((s) => s.mysekaiSiteCategory === "harvest" || s.mysekaiSiteCategory === "delivery")
    .map((s) => ({ id: s.id, key: s.mysekaiSiteType as string, ...names(`site:${s.id}`) }));

  const resources: object[] = [];
  const tierDifferences: object[] = [];
  const push = (type: string, row: Record<string, unknown> & { id: number }, kind: string) => {
    resources.push({ type, id: row.id, ...names(`${type}:${row.id}`), tier: tierOf(type, row.id, row, partyMaterials), kind });
    const difference = tierDifference(type, row.id, partyMaterials);
    if (difference) tierDifferences.push(difference);
  };
  for (const m of jp.rows("mysekaiMaterials.json").values()) push("mysekai_material", m, m.mysekaiMaterialType as string);
  for (const i of jp.rows("mysekaiItems.json").values()) push("mysekai_item", i, "item");
  for (const f of jp.rows("mysekaiFixtures.json").values()) if (f.mysekaiFixtureType === "plant") push("mysekai_fixture", f, "fixture");
  const partyMaterialIds = parties.flatMap((p) => p.materials.filter((m) => m.type === "material").map((m) => m.id));
  for (const id of new Set([...HARVEST_MATERIAL_IDS, ...partyMaterialIds].sort((a, b) => a - b))) {
    const row = jp.rows("materials.json").get(id);
    if (row) push("material", row, "material");
  }

  const phenomena = [...jp.rows("mysekaiPhenomenas.json").values()].map((p) => ({
    id: p.id,
    ...names(`phenomena:${p.id}`),
    timePeriod: p.mysekaiPhenomenaTimePeriodType as string,
  }));

  const harvestFixtures = [...jp.rows("mysekaiSiteHarvestFixtures.json").values()].map((f) => ({
    id: f.id,
    type: f.mysekaiSiteHarvestFixtureType as string,
  }));

  const masterData = REGIONS.map((r) => ({
    region: r,
    repo: servers[r].repo,
    commit: servers[r].commit,
    dataVersion: servers[r].dataVersion,
  }));
  const versions = masterData.map((m) => `${m.region.toUpperCase()} ${m.dataVersion} (${m.repo}@${m.commit.slice(0, 8)})`);
  const source =
    `Generated by scripts/master-data.ts from the game's master data: ${versions.join(", ")}. ` +
    "Ids, types, kinds and harvest points from JP (the newest server); each name from its language's own server " +
    `(${Object.entries(LANG_REGION).map(([l, r]) => `${l} ${r.toUpperCase()}`).join(", ")}); names a server lacks are ` +
    "listed per entry in `composed` (a birthday flower or dew in the pattern the server already uses, from its own " +
    "character names and memoria colours) or `translated` (made here, scripts/master-data/curation.ts). Tiers: " +
    `${TIER_RULE} Tier source: ${LUNABOT_TIERS.source.repo} ${LUNABOT_TIERS.source.path} ${LUNABOT_TIERS.source.key} ` +
    `@${LUNABOT_TIERS.source.commit.slice(0, 8)}. Birthday parties: ${PARTY_NOTE} Site geometry: see siteGeometry.source.`;

  return {
    source,
    masterData,
    sites,
    resources,
    parties,
    tierDifferences,
    phenomena,
    harvestFixtures,
    siteGeometry: { convention: SITE_GEOMETRY_CONVENTION, source: SITE_GEOMETRY_SOURCE, sites: SITE_GEOMETRY },
  };
}
