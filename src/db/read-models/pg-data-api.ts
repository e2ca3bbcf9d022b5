/**
 * The data API's reads (src/http/api/store.ts) on a hub's PostgreSQL: the latest archived full save per (region, player, data type)
 * by saves_player_idx, the save's encrypted bytes and stored JSON, the grants of src/db/pg/data-access.ts, and
 * lunabot's subscription lists (src/db/pg/msr-subscriptions.ts).
 */
import { and, desc, eq, exists, inArray, isNotNull, max, sql } from "drizzle-orm";
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import type { DataReads } from "./sqlite-data-api.ts";
import { archivedSaveBytes } from "../../pipeline/encrypted-save.ts";
import { pgDataAccess } from "../owner/pg-data-access.ts";
import { pgMsrSubscription, pgPutMsrSubscription } from "../owner/pg-msr-subscriptions.ts";
import type { PgDb } from "../pg/open.ts";
import { archives, saves } from "../pg/schema.ts";

export function pgDataReads(db: PgDb, store: ArchiveStore, defaultRegion: string): DataReads {
  const access = pgDataAccess(db);
  /** A save the data API answers for `region`: a full MySekai save, archived (as `latest` counts them). */
  const archivedFullSave = (region: string) => [
    sql`coalesce(${saves.region}, ${defaultRegion}) = ${region}`,
    eq(saves.dataType, "mysekai"),
    eq(saves.partial, false),
    exists(db.select({ one: sql`1` }).from(archives).where(eq(archives.saveId, saves.id))),
  ];
  return {
    latest: async (region, playerId, dataType = "mysekai") => {
      const [row] = await db
        .select({ id: saves.id, sha256: saves.sha256, source: saves.source, receivedAt: saves.receivedAt })
        .from(saves)
        .where(
          and(
            eq(saves.playerId, playerId),
            sql`coalesce(${saves.region}, ${defaultRegion}) = ${region}`,
            eq(saves.dataType, dataType),
            eq(saves.partial, false),
            exists(db.select({ one: sql`1` }).from(archives).where(eq(archives.saveId, saves.id))),
          ),
        )
        .orderBy(desc(saves.receivedAt), desc(saves.id))
        .limit(1);
      return row ?? null;
    },
    recentUploads: async (region, limit) => {
      const newest = max(saves.receivedAt);
      const rows = await db
        .select({ playerId: saves.playerId, receivedAt: newest })
        .from(saves)
        .where(and(isNotNull(saves.playerId), ...archivedFullSave(region)))
        .groupBy(saves.playerId)
        .orderBy(desc(newest), saves.playerId)
        .limit(limit);
      return rows.map((row) => ({ playerId: row.playerId!, receivedAt: Number(row.receivedAt) }));
    },
    uploadTimes: async (region, playerIds) => {
      if (playerIds.length === 0) return [];
      const newest = max(saves.receivedAt);
      const rows = await db
        .select({ playerId: saves.playerId, receivedAt: newest })
        .from(saves)
        .where(and(inArray(saves.playerId, playerIds), ...archivedFullSave(region)))
        .groupBy(saves.playerId);
      return rows.map((row) => ({ playerId: row.playerId!, receivedAt: Number(row.receivedAt) }));
    },
    encrypted: async (saveId) => {
      const [row] = await db
        .select({ encrypted: saves.encrypted, sha256: saves.sha256, relPath: archives.relPath })
        .from(saves)
        .leftJoin(archives, eq(archives.saveId, saves.id))
        .where(eq(saves.id, saveId));
      if (!row) return null;
      if (row.encrypted !== null) return new Uint8Array(row.encrypted);
      const found = await archivedSaveBytes(store, row.relPath, row.sha256);
      return "bytes" in found ? found.bytes : null;
    },
    storedJson: async (saveId) => {
      const [archive] = await db.select({ relPath: archives.relPath, files: archives.files }).from(archives).where(eq(archives.saveId, saveId));
      if (!archive?.files.includes(SAVE_JSON_FILE)) return null;
      return store.readSmall(archive.relPath, SAVE_JSON_FILE);
    },
    grant: (token) => access.apiTokenGrant(token),
    isPublic: (playerId) => access.isPlayerPublic(playerId),
    subscription: (tokenName, region) => pgMsrSubscription(db, tokenName, region),
    subscribe: async (tokenName, region, list, now) => {
      await pgPutMsrSubscription(db, tokenName, region, list, now);
    },
  };
}
