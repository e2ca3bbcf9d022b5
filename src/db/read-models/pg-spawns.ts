/** The archives of a player's month of spawns on a hub's PostgreSQL: the same query as SQLite's (src/spawns/reads.ts). */
import { ARCHIVES_SINCE, type SpawnArchive, type SpawnReads } from "./spawns.ts";
import type { PgDb } from "../pg/open.ts";

export function pgSpawnReads(db: PgDb): SpawnReads {
  return {
    archivesSince: async (playerId, since) =>
      (await db.$client.unsafe(ARCHIVES_SINCE, [playerId, since])).map((row) => ({ ...(row as unknown as SpawnArchive), saveId: Number(row.saveId), receivedAt: Number(row.receivedAt) })),
  };
}
