/**
 * The outputs of one save as one typed model, computed once from the typed save: what the site maps and the
 * overview draw, summary.json, the rare text and the push message. The generate stage stores it with the
 * save (saves.outputs), so the push never reads archive text back.
 */
import type { DataType } from "../capture/data-types.ts";
import type { BirthdayPartyProgress, MySekaiSave, SiteHarvest } from "../save/model.ts";
import type { Locale } from "./catalog.ts";
import { groupSite, type SiteView } from "./group.ts";
import { compareByImportance, type ResourceView } from "./resources.ts";
import { refreshWeather, type RefreshWeather } from "./weather.ts";

/** Bumped when the shape changes: a stored model of another version is computed again. */
export const SAVE_OUTPUTS_VERSION = 3;

/** Extent of every position on a site, drawn or not: what the fallback projection fits. */
export interface SiteFrame {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

/** One site as its map draws it: spots and fixtures (harvested ones only with showHarvested), totals of what is left. */
export interface SiteOutputs extends SiteView {
  frame: SiteFrame | null;
}

export interface ResourceAcrossSites {
  resource: ResourceView;
  /** Sum over every site of the drops not yet harvested. */
  total: number;
  sites: number[];
  positions: { siteId: number; x: number; z: number; quantity: number }[];
}

export interface SaveOutputs {
  version: typeof SAVE_OUTPUTS_VERSION;
  playerId: string;
  /** The owner's name for the player (`players add --name`), else the in-game name; what maps and pushes show (playerLabel). */
  playerName?: string | null;
  /** ISO time the save was received. */
  capturedAt: string;
  /** ISO server time inside the save, when it carries one. */
  saveTime: string | null;
  /**
   * No new harvest state: a MySekai answer without harvest maps, or a birthday party's delivery that refreshed
   * nothing (kept as a record). No maps are drawn, nothing is pushed, nothing a bot reads changes.
   */
  partial: boolean;
  /** A birthday party's delivery, not the MySekai save (absent in models stored before it: the save). */
  dataType?: DataType;
  /** A delivery's `isRefreshed` (null: the body did not say; absent for saves and older models). */
  refreshed?: boolean | null;
  /** `userBirthdayParties` as the body carried it (absent in older models). */
  parties?: BirthdayPartyProgress[];
  locale: Locale;
  /** IANA zone of the times drawn on the maps and written in the rare text. */
  timeZone: string;
  /** The weather at the save's time, from its schedule (absent in models stored before it). */
  weather?: RefreshWeather | null;
  /** Sorted by site id: the order of the maps, the overview's panels and the push's images. */
  sites: SiteOutputs[];
  /** Every resource left on any site, most important first. */
  totals: ResourceAcrossSites[];
  /** The totals of tier rare or super (party-limited spawns and unknown ids among them). */
  rareFinds: ResourceAcrossSites[];
  /** Ids of music records lying on a map that the player does not own yet, ascending. */
  newMusicRecords: number[];
}

export interface OutputsContext {
  playerId: string;
  /** The owner's name for the player, which wins over the save's in-game name. */
  ownerName?: string | null;
  capturedAt: Date;
  locale: Locale;
  showHarvested: boolean;
  /** Default UTC. */
  timeZone?: string;
  /** Default the MySekai save. */
  dataType?: DataType;
}

function siteFrame(site: SiteHarvest): SiteFrame | null {
  const positions = [...site.fixtures, ...site.drops];
  if (positions.length === 0) return null;
  const xs = positions.map((p) => p.positionX);
  const zs = positions.map((p) => p.positionZ);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minZ: Math.min(...zs), maxZ: Math.max(...zs) };
}

/**
 * Whether a capture is the player's newest harvest state: a save with harvest maps, or a birthday party's delivery
 * saying `isRefreshed: true` with harvest maps (the largest hub stores a delivery only then, and writes its maps
 * over the player's). Any other delivery is a record.
 */
export function isHarvestState(save: MySekaiSave, dataType: DataType): boolean {
  return save.hasHarvestMaps && (dataType !== "mysekai_birthday_party" || save.isRefreshed === true);
}

export function describeSave(save: MySekaiSave, ctx: OutputsContext): SaveOutputs {
  const ownedMusicRecords = new Set(save.ownedMusicRecordIds);
  const dataType = ctx.dataType ?? "mysekai";
  const partial = !isHarvestState(save, dataType);
  // A delivery kept as a record draws nothing, whatever maps it carries.
  const sites = (partial ? [] : [...save.sites])
    .sort((a, b) => a.siteId - b.siteId)
    .map((site) => ({ ...groupSite(site, { locale: ctx.locale, ownedMusicRecords, showHarvested: ctx.showHarvested }), frame: siteFrame(site) }));
  const across = new Map<string, ResourceAcrossSites>();
  for (const site of sites) {
    for (const t of site.totals) {
      const entry = across.get(t.resource.groupKey) ?? { resource: t.resource, total: 0, sites: [], positions: [] };
      entry.total += t.total;
      entry.sites.push(site.siteId);
      entry.positions.push(...t.positions.map((p) => ({ siteId: site.siteId, x: p.x, z: p.z, quantity: p.quantity })));
      across.set(t.resource.groupKey, entry);
    }
  }
  const totals = [...across.values()].sort(compareByImportance);
  return {
    version: SAVE_OUTPUTS_VERSION,
    playerId: ctx.playerId,
    playerName: ctx.ownerName ?? save.playerName ?? null,
    capturedAt: ctx.capturedAt.toISOString(),
    saveTime: save.now === null ? null : new Date(save.now).toISOString(),
    partial,
    dataType,
    ...(dataType === "mysekai_birthday_party" && { refreshed: save.isRefreshed }),
    parties: save.birthdayParties,
    locale: ctx.locale,
    timeZone: ctx.timeZone ?? "UTC",
    weather: refreshWeather(save.weather, save.now ?? ctx.capturedAt.getTime(), ctx.locale),
    sites,
    totals,
    rareFinds: totals.filter((t) => t.resource.tier !== "common"),
    newMusicRecords: totals
      .filter((t) => t.resource.musicRecord === "new")
      .map((t) => t.resource.id)
      .sort((a, b) => a - b),
  };
}

/** Who the maps and pushes name: the player's name, else the id (the id stays in summary.json and the archive). */
export const playerLabel = (outputs: Pick<SaveOutputs, "playerId" | "playerName">): string => outputs.playerName ?? outputs.playerId;

export const isBirthdayParty = (outputs: SaveOutputs) => outputs.dataType === "mysekai_birthday_party";

/** The map files in push order: site maps by site id, the overview last. */
export function mapFileNames(outputs: SaveOutputs): string[] {
  return [...outputs.sites.map((site) => `site_${site.siteId}.png`), "overview.png"];
}

/** The stored model, or null when there is none or it has another shape (the save is generated again). */
export function storedOutputs(value: SaveOutputs | null): SaveOutputs | null {
  if (value?.version !== SAVE_OUTPUTS_VERSION) return null;
  // Models stored before the five languages name simplified Chinese `zh`.
  return (value.locale as string) === "zh" ? { ...value, locale: "zh-Hans" } : value;
}
