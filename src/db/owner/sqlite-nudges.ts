/** Nudge opt-ins and claims over SQLite (the one owner of nudge_players and nudges here); a hub's: pg/nudges.ts. */
import { eq } from "drizzle-orm";
import type { Region } from "../../capture/regions.ts";
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { Db } from "../open.ts";
import { nudgePlayers, nudges } from "../schema.ts";

/**
 * A MySekai save counts unless its archive's digest says partial or its job failed (a wrong key, junk: what a nudge
 * is for); a birthday party's delivery is not the refresh's save.
 */
const FULL_SAVE_SINCE = `SELECT 1 FROM saves s LEFT JOIN archives a ON a.save_id = s.id
  WHERE s.player_id = ?1 AND s.received_at >= ?2 AND s.data_type = 'mysekai' AND (a.digest IS NULL OR json_extract(a.digest, '$.partial') = 0)
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = s.id AND j.state = 'failed') LIMIT 1`;
const LATEST_REGION = "SELECT region FROM saves WHERE player_id = ?1 AND region IS NOT NULL ORDER BY received_at DESC, id DESC LIMIT 1";

export function sqliteNudgeStore(db: Db): NudgeStore {
  return {
    setNudge: async (playerId, hours, now = Date.now()) => {
      if (hours === null) db.delete(nudgePlayers).where(eq(nudgePlayers.playerId, playerId)).run();
      else db.insert(nudgePlayers).values({ playerId, hours, since: now }).onConflictDoUpdate({ target: nudgePlayers.playerId, set: { hours } }).run();
    },
    nudgePlayers: async () => db.select().from(nudgePlayers).all(),
    nudgePlayer: async (playerId) => db.select().from(nudgePlayers).where(eq(nudgePlayers.playerId, playerId)).get() ?? null,
    claim: async (playerId, refreshAt, kind, now = Date.now()) =>
      db.insert(nudges).values({ playerId, refreshAt, kind, createdAt: now }).onConflictDoNothing().returning({ p: nudges.playerId }).all().length === 1,
    fullSaveSince: async (playerId, since) => db.$client.query(FULL_SAVE_SINCE).get(playerId, since) !== null,
    latestRegion: async (playerId) => ((db.$client.query(LATEST_REGION).get(playerId) as { region: Region } | null)?.region ?? null),
  };
}
