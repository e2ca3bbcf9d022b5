/**
 * Read queries for the data API: a player's latest archived save of a data type in a region (a save without a
 * game host counts for the default region), by the saves_player_idx index. A partial refresh (no harvest maps) is
 * never the latest: a bot reading it would find no maps where the full save before it had them.
 */
import type { DataType } from "../../capture/data-types.ts";
import type { Db } from "../open.ts";

export interface LatestSave {
  id: number;
  sha256: string;
  source: "upload" | "report";
  receivedAt: number;
}

const LATEST = `SELECT s.id, s.sha256, s.source, s.received_at AS receivedAt FROM saves s
  WHERE s.player_id = ?1 AND coalesce(s.region, ?3) = ?2 AND s.data_type = ?4 AND s.partial = 0 AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)
  ORDER BY s.received_at DESC, s.id DESC LIMIT 1`;

export function latestSave(db: Db, region: string, playerId: string, defaultRegion: string, dataType: DataType = "mysekai"): LatestSave | null {
  return (db.$client.query(LATEST).get(playerId, region, defaultRegion, dataType) as LatestSave | null) ?? null;
}

export interface PlayerUpload {
  playerId: string;
  receivedAt: number;
}

const RECENT = `SELECT s.player_id AS playerId, max(s.received_at) AS receivedAt FROM saves s
  WHERE s.player_id IS NOT NULL AND coalesce(s.region, ?2) = ?1 AND s.data_type = 'mysekai' AND s.partial = 0 AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)
  GROUP BY s.player_id ORDER BY receivedAt DESC, s.player_id LIMIT ?3`;

const TIMES = `SELECT s.player_id AS playerId, max(s.received_at) AS receivedAt FROM saves s
  WHERE s.player_id IN (SELECT value FROM json_each(?3)) AND coalesce(s.region, ?2) = ?1 AND s.data_type = 'mysekai' AND s.partial = 0 AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)
  GROUP BY s.player_id`;

/** The latest upload time of each of `playerIds` with an archived full MySekai save in `region` (as `latestSave` counts them): one query. */
export function uploadTimes(db: Db, region: string, defaultRegion: string, playerIds: string[]): PlayerUpload[] {
  return db.$client.query(TIMES).all(region, defaultRegion, JSON.stringify(playerIds)) as PlayerUpload[];
}

/** The players with an archived full MySekai save in `region` (as `latestSave` counts them), each with its latest upload time, the newest first, at most `limit`. */
export function recentUploads(db: Db, region: string, defaultRegion: string, limit: number): PlayerUpload[] {
  return db.$client.query(RECENT).all(region, defaultRegion, limit) as PlayerUpload[];
}
