/** What a (type, id) drop is called and how loudly it is drawn. */
import { resourceKey, type ResourceKey } from "../save/model.ts";
import { findResource, MUSIC_RECORD_TYPE, partyBySpawnGroup, pickName, type Locale, type Tier } from "./catalog.ts";
import { partyLabel, unknownResourceName, UI_STRINGS, type UiStrings } from "./i18n.ts";
import { musicRecordTitle } from "./music-titles.ts";

/**
 * A party's harvest point as a find of its own (the game's `mysekaiSiteHarvestFixture`), for a party harvest point
 * on which no party drop lies: it is never a resource of a drop.
 */
export const HARVEST_POINT_TYPE = "mysekai_site_harvest_fixture";

/** Display emphasis: catalogue tier, except that a new music record is drawn as "record" (rare-styled). */
export type Emphasis = "super" | "rare" | "record" | "common";

export interface ResourceView {
  type: string;
  id: number;
  key: ResourceKey;
  name: string;
  tier: Tier;
  emphasis: Emphasis;
  /** Colour family of a common marker: wood, mineral, plant, junk, item, fixture, music_record, unknown ... */
  kind: string;
  /**
   * Why a resource is called out whatever its tier: "party", a party-limited spawn (its drop carries a spawn
   * group); "unknown", an id (or type) the catalogue does not know; null otherwise.
   */
  find: "party" | "unknown" | null;
  /** The drop's mysekaiSiteHarvestSpawnLimitedRelationGroupId, null for an ordinary drop. */
  spawnGroup: number | null;
  /** What groups drops into one entry: the key, and the spawn group of a party-limited spawn. */
  groupKey: string;
  /** "new" / "owned" for music records, null otherwise. */
  musicRecord: "new" | "owned" | null;
  /** A music record's song title in the locale's language; null for other resources and unknown record ids. */
  title: string | null;
  known: boolean;
}

/** A title that is one bracketed part already (「1」) is not bracketed again: 唱片「1」, never 唱片「「1」」. */
const BRACKETED = /^(?:「[^「」]*」|『[^『』]*』|“[^“”]*”)$/;

function recordName(title: string, ui: UiStrings): string {
  if (!BRACKETED.test(title)) return `${ui.musicRecord}${ui.titleOpen}${title}${ui.titleClose}`;
  return `${ui.musicRecord}${ui.titleOpen.startsWith(" ") ? " " : ""}${title}`;
}

/**
 * A resource as the maps draw it. A drop carrying a spawn group is a party-limited spawn: top tier, named after its
 * party ("遥 2026 生日派对 · …", or generically when no party in the catalogue has the group). An id the catalogue
 * does not know is a find too (rare), named by its type and id in the locale's language, never a silent common.
 */
export function describeResource(
  type: string,
  id: number,
  locale: Locale,
  ownedMusicRecords: ReadonlySet<number>,
  spawnGroup: number | null = null,
): ResourceView {
  const view = describeOrdinary(type, id, locale, ownedMusicRecords);
  if (spawnGroup === null) return view;
  const party = partyBySpawnGroup(spawnGroup);
  return {
    ...view,
    name: `${partyLabel(party, locale)} · ${view.name}`,
    tier: "super",
    emphasis: "super",
    find: "party",
    spawnGroup,
    groupKey: `${view.key}@${spawnGroup}`,
  };
}

function describeOrdinary(type: string, id: number, locale: Locale, ownedMusicRecords: ReadonlySet<number>): ResourceView {
  const key = resourceKey(type, id);
  if (type === HARVEST_POINT_TYPE) {
    const name = UI_STRINGS[locale].resourceTypes[HARVEST_POINT_TYPE];
    return { type, id, key, name, tier: "common", emphasis: "common", kind: "fixture", find: null, spawnGroup: null, groupKey: key, musicRecord: null, title: null, known: true };
  }
  if (type === MUSIC_RECORD_TYPE) {
    const isNew = !ownedMusicRecords.has(id);
    const ui = UI_STRINGS[locale];
    const title = musicRecordTitle(id, locale);
    return {
      type,
      id,
      key,
      name: title === null ? `${ui.musicRecord} #${id}` : recordName(title, ui),
      tier: "common",
      emphasis: isNew ? "record" : "common",
      kind: "music_record",
      find: null,
      spawnGroup: null,
      groupKey: key,
      musicRecord: isNew ? "new" : "owned",
      title,
      known: true,
    };
  }
  const entry = findResource(type, id);
  const name = entry ? pickName(entry.name, locale) : null;
  // An id the catalogue does not know is news for the player: a rare find until the catalogue names it.
  const tier = entry?.tier ?? "rare";
  return {
    type,
    id,
    key,
    name: name ?? unknownResourceName(type, id, locale),
    tier,
    emphasis: tier,
    kind: entry?.kind ?? "unknown",
    find: entry ? null : "unknown",
    spawnGroup: null,
    groupKey: key,
    musicRecord: null,
    title: null,
    known: entry !== null,
  };
}

const EMPHASIS_RANK: Record<Emphasis, number> = { super: 0, rare: 1, record: 2, common: 3 };

export function emphasisRank(e: Emphasis): number {
  return EMPHASIS_RANK[e];
}

/** Rare first (super, rare, new records), then larger totals, then type and id: a total order. */
export function compareByImportance(
  a: { resource: ResourceView; total: number },
  b: { resource: ResourceView; total: number },
): number {
  return (
    emphasisRank(a.resource.emphasis) - emphasisRank(b.resource.emphasis) ||
    b.total - a.total ||
    (a.resource.type < b.resource.type ? -1 : a.resource.type > b.resource.type ? 1 : 0) ||
    a.resource.id - b.resource.id
  );
}

/** Label text of one drop group, e.g. "钻石 ×3", "唱片「像神一样呐」 NEW ×1". */
export function dropLabel(resource: ResourceView, quantity: number, locale: Locale): string {
  const badge =
    resource.musicRecord === "new"
      ? ` ${UI_STRINGS[locale].newBadge}`
      : resource.musicRecord === "owned"
        ? ` (${UI_STRINGS[locale].owned})`
        : "";
  return `${resource.name}${badge} ×${quantity}`;
}
