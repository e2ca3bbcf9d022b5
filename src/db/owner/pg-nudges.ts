/** Nudge opt-ins and claims on a hub's PostgreSQL, the same rows as SQLite's (src/db/nudges.ts). */
import { eq } from "drizzle-orm";
import type { Region } from "../../capture/regions.ts";
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { PgDb } from "../pg/open.ts";
import { nudgePlayers, nudges } from "../pg/schema.ts";

export function pgNudgeStore(db: PgDb): NudgeStore {
  return {
    setNudge: async (playerId, hours, now = Date.now()) => {
      if (hours === null) await db.delete(nudgePlayers).where(eq(nudgePlayers.playerId, playerId));
      else await db.insert(nudgePlayers).values({ playerId, hours, since: now }).onConflictDoUpdate({ target: nudgePlayers.playerId, set: { hours } });
    },
    nudgePlayers: () => db.select().from(nudgePlayers),
    nudgePlayer: async (playerId) => (await db.select().from(nudgePlayers).where(eq(nudgePlayers.playerId, playerId)))[0] ?? null,
    claim: async (playerId, refreshAt, kind, now = Date.now()) =>
      (await db.insert(nudges).values({ playerId, refreshAt, kind, createdAt: now }).onConflictDoNothing().returning({ p: nudges.playerId })).length === 1,
    fullSaveSince: async (playerId, since) =>
      (await db.$client`SELECT 1 FROM saves s LEFT JOIN archives a ON a.save_id = s.id
        WHERE s.player_id = ${playerId} AND s.received_at >= ${since} AND s.data_type = 'mysekai' AND (a.digest IS NULL OR (a.digest->>'partial')::boolean = false)
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = s.id AND j.state = 'failed') LIMIT 1`).length > 0,
    latestRegion: async (playerId) =>
      ((await db.$client`SELECT region FROM saves WHERE player_id = ${playerId} AND region IS NOT NULL ORDER BY received_at DESC, id DESC LIMIT 1`)[0]?.region as Region | undefined) ?? null,
  };
}
