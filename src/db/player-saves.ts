/**
 * Read queries for the data API: a player's latest archived save in a region (a save without a game host
 * counts for the default region), by the saves_player_idx index.
 */
import type { Db } from "./open.ts";

export interface LatestSave {
  id: number;
  sha256: string;
  source: "upload" | "report";
  receivedAt: number;
}

const LATEST = `SELECT s.id, s.sha256, s.source, s.received_at AS receivedAt FROM saves s
  WHERE s.player_id = ?1 AND coalesce(s.region, ?3) = ?2 AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)
  ORDER BY s.received_at DESC, s.id DESC LIMIT 1`;

export function latestSave(db: Db, region: string, playerId: string, defaultRegion: string): LatestSave | null {
  return (db.$client.query(LATEST).get(playerId, region, defaultRegion) as LatestSave | null) ?? null;
}

export interface PlayerUpload {
  playerId: string;
  receivedAt: number;
}

const RECENT = `SELECT s.player_id AS playerId, max(s.received_at) AS receivedAt FROM saves s
  WHERE s.player_id IS NOT NULL AND coalesce(s.region, ?2) = ?1 AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)
  GROUP BY s.player_id ORDER BY receivedAt DESC, s.player_id LIMIT ?3`;

/** The players with an archived save in `region`, each with its latest upload time, the newest first, at most `limit`. */
export function recentUploads(db: Db, region: string, defaultRegion: string, limit: number): PlayerUpload[] {
  return db.$client.query(RECENT).all(region, defaultRegion, limit) as PlayerUpload[];
}
