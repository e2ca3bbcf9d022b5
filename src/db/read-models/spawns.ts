/** The archives a player's month of spawns is read from: SQLite's here, a hub's in src/db/pg/read-models/spawns.ts. */
import { HISTORY_ROWS } from "./player-history.ts";
import type { Db } from "../open.ts";
import type { RefreshDigest } from "../../maps/refresh-digest.ts";

export interface SpawnArchive {
  saveId: number;
  receivedAt: number;
  relPath: string;
  /** null: archived before digests were kept (its summary.json is read all the same). */
  digest: RefreshDigest | null;
}

export interface SpawnReads {
  /** The player's archives received since `since`, newest first, at most HISTORY_ROWS. */
  archivesSince(playerId: string, since: number): Promise<SpawnArchive[]>;
}

export const ARCHIVES_SINCE = `SELECT s.id AS "saveId", s.received_at AS "receivedAt", a.rel_path AS "relPath", a.digest
  FROM saves s JOIN archives a ON a.save_id = s.id WHERE s.player_id = $1 AND s.received_at >= $2
  ORDER BY s.received_at DESC, s.id DESC LIMIT ${HISTORY_ROWS}`;

export function sqliteSpawnReads(db: Db): SpawnReads {
  const query = db.$client.query(ARCHIVES_SINCE.replaceAll("$1", "?1").replaceAll("$2", "?2"));
  return {
    archivesSince: async (playerId, since) =>
      (query.all(playerId, since) as (Omit<SpawnArchive, "digest"> & { digest: string | null })[]).map((row) => ({ ...row, digest: row.digest === null ? null : (JSON.parse(row.digest) as RefreshDigest) })),
  };
}
