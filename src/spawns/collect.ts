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

/**
 * The positions read at the most: a real month holds tens of finds, while a crafted save may hold thousands of
 * "rare" drops on distinct spots; past this the rest of the month is left out (the image's cap names what it draws).
 */
export const MAX_POSITIONS = 20_000;

/** Spots by site id (ascending), each site's spots with the most finds first; refreshes before `since` are left out. */
export function spawnSpots(refreshes: readonly RefreshFinds[], since: number): Map<number, SpawnSpot[]> {
  const spots = new Map<string, SpawnSpot>();
  let read = 0;
  for (const refresh of refreshes) {
    if (refresh.receivedAt < since) continue;
    for (const find of refresh.rareFinds) {
      if (find.tier === "common") continue;
      for (const p of find.positions) {
        if (++read > MAX_POSITIONS) break;
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
    const site = bySite.get(spot.siteId);
    if (site) site.push(spot);
    else bySite.set(spot.siteId, [spot]);
  }
  return bySite;
}
