/** summary.json: the outputs model as machines read it, one shape for full and partial saves. */
import type { ResourceKey } from "../save/model.ts";
import type { Tier } from "./catalog.ts";
import type { ResourceView } from "./resources.ts";
import type { SaveOutputs } from "./save-outputs.ts";

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

export interface SummaryJson {
  playerId: string;
  capturedAt: string;
  saveTime: string | null;
  /** false for a partial refresh (no harvest maps): every list is then empty. */
  hasHarvestMaps: boolean;
  sites: { siteId: number; name: string; resources: SummaryResource[] }[];
  totals: SummaryTotal[];
  rareFinds: RareFind[];
  newMusicRecords: number[];
}

function head(r: ResourceView, total: number): SummaryResourceHead {
  return { type: r.type, id: r.id, key: r.key, name: r.name, tier: r.tier, musicRecord: r.musicRecord, total };
}

export function summaryJson(outputs: SaveOutputs): SummaryJson {
  return {
    playerId: outputs.playerId,
    capturedAt: outputs.capturedAt,
    saveTime: outputs.saveTime,
    hasHarvestMaps: !outputs.partial,
    sites: outputs.sites.map((site) => ({
      siteId: site.siteId,
      name: site.name,
      resources: site.totals.map((t) => ({ ...head(t.resource, t.total), positions: t.positions })),
    })),
    totals: outputs.totals.map((t) => ({ ...head(t.resource, t.total), sites: t.sites })),
    rareFinds: outputs.rareFinds.map(({ resource: r, total, sites, positions }) => ({
      type: r.type,
      id: r.id,
      key: r.key,
      name: r.name,
      tier: r.tier,
      total,
      sites,
      positions,
    })),
    newMusicRecords: outputs.newMusicRecords,
  };
}

/** The bytes of summary.json. */
export function summaryFile(outputs: SaveOutputs): { name: string; bytes: Uint8Array } {
  return { name: "summary.json", bytes: new TextEncoder().encode(`${JSON.stringify(summaryJson(outputs), null, 2)}\n`) };
}
