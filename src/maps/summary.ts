/** summary.json: per site and per resource counts of the drops not yet harvested, rare finds, new music records. */
import type { MySekaiSave, ResourceKey } from "../save/model.ts";
import type { Locale, Tier } from "./catalog.ts";
import { groupSite, type SiteView } from "./group.ts";
import { compareByImportance, type ResourceView } from "./resources.ts";

export interface SummaryPosition {
  x: number;
  z: number;
  quantity: number;
}

interface SummaryResourceHead {
  type: string;
  id: number;
  key: ResourceKey;
  name: string;
  tier: Tier;
  /** "new" / "owned" for music records, null for everything else. */
  musicRecord: "new" | "owned" | null;
  total: number;
}

export interface SummaryResource extends SummaryResourceHead {
  positions: SummaryPosition[];
}

export interface SummaryTotal extends SummaryResourceHead {
  sites: number[];
}

export interface RareFind {
  type: string;
  id: number;
  key: ResourceKey;
  name: string;
  tier: Tier;
  total: number;
  sites: number[];
  positions: (SummaryPosition & { siteId: number })[];
}

export interface MapSummary {
  playerId: string;
  capturedAt: string;
  saveTime: string | null;
  hasHarvestMaps: boolean;
  sites: { siteId: number; name: string; resources: SummaryResource[] }[];
  totals: SummaryTotal[];
  rareFinds: RareFind[];
  /** Ids of music records lying on a map that the player does not own yet, ascending. */
  newMusicRecords: number[];
}

export interface SummaryContext {
  playerId: string;
  capturedAt: Date;
  locale: Locale;
}

/** Sites sorted by id, grouped without harvested drops (the summary counts what is still there). */
export function siteViews(save: MySekaiSave, locale: Locale, showHarvested: boolean): SiteView[] {
  const ownedMusicRecords = new Set(save.ownedMusicRecordIds);
  return [...save.sites]
    .sort((a, b) => a.siteId - b.siteId)
    .map((site) => groupSite(site, { locale, ownedMusicRecords, showHarvested }));
}

function resourceHead(r: ResourceView) {
  return { type: r.type, id: r.id, key: r.key, name: r.name, tier: r.tier, musicRecord: r.musicRecord };
}

export function buildSummary(save: MySekaiSave, ctx: SummaryContext): MapSummary {
  const views = siteViews(save, ctx.locale, false);
  const across = new Map<ResourceKey, { resource: ResourceView; total: number; sites: number[]; positions: RareFind["positions"] }>();
  for (const view of views) {
    for (const t of view.totals) {
      const entry = across.get(t.resource.key) ?? { resource: t.resource, total: 0, sites: [], positions: [] };
      entry.total += t.total;
      entry.sites.push(view.siteId);
      entry.positions.push(...t.positions.map((p) => ({ siteId: view.siteId, x: p.x, z: p.z, quantity: p.quantity })));
      across.set(t.resource.key, entry);
    }
  }
  const acrossSorted = [...across.values()].sort(compareByImportance);
  return {
    playerId: ctx.playerId,
    capturedAt: ctx.capturedAt.toISOString(),
    saveTime: save.now === null ? null : new Date(save.now).toISOString(),
    hasHarvestMaps: save.hasHarvestMaps,
    sites: views.map((view) => ({
      siteId: view.siteId,
      name: view.name,
      resources: view.totals.map((t) => ({ ...resourceHead(t.resource), total: t.total, positions: t.positions })),
    })),
    totals: acrossSorted.map((e) => ({ ...resourceHead(e.resource), total: e.total, sites: e.sites })),
    rareFinds: acrossSorted
      .filter((e) => e.resource.tier !== "common")
      .map((e) => ({
        type: e.resource.type,
        id: e.resource.id,
        key: e.resource.key,
        name: e.resource.name,
        tier: e.resource.tier,
        total: e.total,
        sites: e.sites,
        positions: e.positions,
      })),
    newMusicRecords: acrossSorted
      .filter((e) => e.resource.musicRecord === "new")
      .map((e) => e.resource.id)
      .sort((a, b) => a - b),
  };
}
