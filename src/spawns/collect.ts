/**
 * A month of rare spawns: every rare and super-rare find of a player's refreshes since a cutoff, gathered per site
 * and per spot (the game's position), newest first. From each refresh's summary.json, read only for refreshes
 * whose digest names a rare find.
 */
import type { RareFind } from "../maps/summary.ts";

export interface SpawnFind {
  type: string;
  id: number;
  key: string;
  name: string;
  tier: "super" | "rare";
  quantity: number;
  /** When the refresh holding it was received. */
  at: number;
}

export interface SpawnSpot {
  siteId: number;
  x: number;
  z: number;
  /** Newest first. */
  finds: SpawnFind[];
}

export interface RefreshFinds {
  receivedAt: number;
  rareFinds: readonly RareFind[];
}

/** Spots by site id (ascending), each site's spots with the most finds first; refreshes before `since` are left out. */
export function spawnSpots(refreshes: readonly RefreshFinds[], since: number): Map<number, SpawnSpot[]> {
  const spots = new Map<string, SpawnSpot>();
  for (const refresh of refreshes) {
    if (refresh.receivedAt < since) continue;
    for (const find of refresh.rareFinds) {
      if (find.tier === "common") continue;
      for (const p of find.positions) {
        const id = `${p.siteId}:${p.x}:${p.z}`;
        const spot = spots.get(id) ?? { siteId: p.siteId, x: p.x, z: p.z, finds: [] };
        spot.finds.push({ type: find.type, id: find.id, key: find.key, name: find.name, tier: find.tier, quantity: p.quantity, at: refresh.receivedAt });
        spots.set(id, spot);
      }
    }
  }
  const bySite = new Map<number, SpawnSpot[]>();
  for (const spot of [...spots.values()].sort((a, b) => a.siteId - b.siteId || b.finds.length - a.finds.length || a.x - b.x || a.z - b.z)) {
    spot.finds.sort((a, b) => b.at - a.at);
    bySite.set(spot.siteId, [...(bySite.get(spot.siteId) ?? []), spot]);
  }
  return bySite;
}
