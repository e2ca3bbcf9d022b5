/**
 * The catalogue's birthday parties and the tier rule they give: every material a party names (its delivery item
 * and its delivery reward) is top tier, whatever id it has. Read from JP's `birthdayParties` (the newest server);
 * each character's name from its language's own server, like every other name.
 */
import { LANG_REGION, NAME_LANGS, text, type NameLang, type Row, type Server } from "./read.ts";
import type { Servers } from "./names.ts";

export interface PartyMaterial {
  type: "material" | "mysekai_material";
  id: number;
}

export interface CataloguePartyRow {
  id: number;
  assetbundleName: string;
  characterId: number;
  /** The character's given name per catalogue language. */
  character: Record<NameLang, string>;
  /** The party's year: the `_YYYY` its assetbundleName ends with, else the year of its birthday (JST). */
  year: number;
  /** mysekaiSiteHarvestSpawnLimitedRelationGroupId: carried by every harvest point and drop the party spawns. */
  spawnGroupId: number | null;
  /** mysekaiSiteHarvestFixtureId of the party's harvest point. */
  harvestFixtureId: number | null;
  /** deliveryItemMaterialId (a `material`) and deliveryRewardMysekaiMaterialId (a `mysekai_material`). */
  materials: PartyMaterial[];
  /** The materials obtained each of `birthdayPartyDeliveryTotalRewards` asks, ascending (empty where the server has none). */
  deliveryTotalRewards: number[];
}

const JST_MS = 9 * 3600_000;

function yearOf(party: Row): number {
  const named = /_(\d{4})$/.exec(String(party.assetbundleName ?? ""));
  if (named) return Number(named[1]);
  return new Date(Number(party.birthdayStartAt ?? party.startAt) + JST_MS).getUTCFullYear();
}

const intOrNull = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) ? value : null);

function characterNames(servers: Servers, characterId: number): Record<NameLang, string> {
  const names = {} as Record<NameLang, string>;
  for (const lang of NAME_LANGS) {
    const server = servers[LANG_REGION[lang]];
    const name = text(server.rows("gameCharacters.json").get(characterId), "givenName") ?? text(servers.jp.rows("gameCharacters.json").get(characterId), "givenName");
    if (!name) throw new Error(`birthday party character ${characterId}: no givenName in ${server.repo} nor in JP`);
    names[lang] = name;
  }
  return names;
}

function totalRewardsByParty(jp: Server): Map<number, number[]> {
  const byParty = new Map<number, Set<number>>();
  for (const reward of jp.rows("birthdayPartyDeliveryTotalRewards.json").values()) {
    const party = intOrNull(reward.birthdayPartyId);
    const requirement = intOrNull(reward.requirement);
    if (party === null || requirement === null) continue;
    byParty.set(party, (byParty.get(party) ?? new Set()).add(requirement));
  }
  return new Map([...byParty].map(([party, set]) => [party, [...set].sort((a, b) => a - b)]));
}

export function buildParties(servers: Servers): CataloguePartyRow[] {
  const jp: Server = servers.jp;
  const units = jp.rows("gameCharacterUnits.json");
  const totalRewards = totalRewardsByParty(jp);
  return [...jp.rows("birthdayParties.json").values()]
    .sort((a, b) => a.id - b.id)
    .map((party) => {
      const characterId = units.get(party.gameCharacterUnitId as number)?.gameCharacterId as number | undefined;
      if (characterId === undefined) throw new Error(`birthday party ${party.id}: unit ${String(party.gameCharacterUnitId)} names no character`);
      const materials: PartyMaterial[] = [];
      const item = intOrNull(party.deliveryItemMaterialId);
      const reward = intOrNull(party.deliveryRewardMysekaiMaterialId);
      if (item !== null) materials.push({ type: "material", id: item });
      if (reward !== null) materials.push({ type: "mysekai_material", id: reward });
      return {
        id: party.id,
        assetbundleName: String(party.assetbundleName ?? ""),
        characterId,
        character: characterNames(servers, characterId),
        year: yearOf(party),
        spawnGroupId: intOrNull(party.mysekaiSiteHarvestSpawnLimitedRelationGroupId),
        harvestFixtureId: intOrNull(party.mysekaiSiteHarvestFixtureId),
        materials,
        deliveryTotalRewards: totalRewards.get(party.id) ?? [],
      };
    });
}

/** `type:id` of every material some party names. */
export function partyMaterialKeys(parties: readonly CataloguePartyRow[]): Set<string> {
  return new Set(parties.flatMap((p) => p.materials.map((m) => `${m.type}:${m.id}`)));
}
