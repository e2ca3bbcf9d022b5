/** summary.json: the outputs model as machines read it, one shape for full and partial saves. */
import type { DataType } from "../capture/data-types.ts";
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
  /** A music record's song title; null for other resources and record ids the title data does not know. */
  title: string | null;
  /** "party": a party-limited spawn; "unknown": an id or type the catalogue does not know; null otherwise. */
  find: ResourceView["find"];
  /** The drops' mysekaiSiteHarvestSpawnLimitedRelationGroupId (party-limited spawns), else null. */
  spawnGroup: number | null;
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
  find: ResourceView["find"];
  spawnGroup: number | null;
  total: number;
  sites: number[];
  positions: (SummaryPosition & { siteId: number })[];
}

/** A music record lying on a map (not yet harvested). */
export interface SummaryMusicRecord {
  id: number;
  /** null: the title data does not know the id. */
  title: string | null;
  status: "new" | "owned";
  total: number;
  sites: number[];
}

export interface SummaryJson {
  playerId: string;
  capturedAt: string;
  saveTime: string | null;
  /** false when nothing was drawn (a partial refresh, a party delivery that refreshed nothing): every list is then empty. */
  hasHarvestMaps: boolean;
  /** `mysekai_birthday_party` for a birthday party's delivery, else `mysekai`. */
  dataType: DataType;
  /** A delivery's `isRefreshed` (null when its body did not say); absent for a MySekai save. */
  refreshed?: boolean | null;
  /** `userBirthdayParties` as the body carried it: party id, materials obtained, delivery points. */
  birthdayParties: { partyId: number; obtained: number; points: number | null }[];
  sites: { siteId: number; name: string; resources: SummaryResource[] }[];
  totals: SummaryTotal[];
  rareFinds: RareFind[];
  newMusicRecords: number[];
  /** Every music record on the maps, new ones first, then by id. */
  musicRecords: SummaryMusicRecord[];
  /** The player's last pushed save, when this one has the same drops and was therefore not pushed; else null. */
  repeatOf: number | null;
}

function head(r: ResourceView, total: number): SummaryResourceHead {
  return { type: r.type, id: r.id, key: r.key, name: r.name, tier: r.tier, musicRecord: r.musicRecord, title: r.title, find: r.find, spawnGroup: r.spawnGroup, total };
}

function musicRecords(outputs: SaveOutputs): SummaryMusicRecord[] {
  return outputs.totals
    .flatMap(({ resource: r, total, sites }) => (r.musicRecord === null ? [] : [{ id: r.id, title: r.title, status: r.musicRecord, total, sites }]))
    .sort((a, b) => Number(a.status === "owned") - Number(b.status === "owned") || a.id - b.id);
}

export function summaryJson(outputs: SaveOutputs, repeatOf: number | null = null): SummaryJson {
  return {
    playerId: outputs.playerId,
    capturedAt: outputs.capturedAt,
    saveTime: outputs.saveTime,
    hasHarvestMaps: !outputs.partial,
    dataType: outputs.dataType ?? "mysekai",
    ...(outputs.refreshed !== undefined && { refreshed: outputs.refreshed }),
    birthdayParties: outputs.parties ?? [],
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
      find: r.find,
      spawnGroup: r.spawnGroup,
      total,
      sites,
      positions,
    })),
    newMusicRecords: outputs.newMusicRecords,
    musicRecords: musicRecords(outputs),
    repeatOf,
  };
}

/** The bytes of summary.json; `repeatOf` once the notify stage found the save repeats the player's last push. */
export function summaryFile(outputs: SaveOutputs, repeatOf: number | null = null): { name: string; bytes: Uint8Array } {
  return { name: "summary.json", bytes: new TextEncoder().encode(`${JSON.stringify(summaryJson(outputs, repeatOf), null, 2)}\n`) };
}
