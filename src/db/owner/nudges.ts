/**
 * Missed-refresh nudges' opt-ins and claims, written once for both stores over their statements
 * (src/db/dialect/): the one owner of nudge_players and nudges.
 */
import type { Region } from "../../capture/regions.ts";
import type { NudgePlayer, NudgeStore } from "../../store/ports/nudges.ts";
import { first, read, type Statements } from "../dialect/statements.ts";

const SET = read(`INSERT INTO nudge_players (player_id, hours, since) VALUES ($1, $2, $3) ON CONFLICT (player_id) DO UPDATE SET hours = excluded.hours`);
const UNSET = read(`DELETE FROM nudge_players WHERE player_id = $1`);
const PLAYERS = read<NudgePlayer>(`SELECT player_id AS "playerId", hours, since FROM nudge_players`, { since: "int" });
const PLAYER = read<NudgePlayer>(`SELECT player_id AS "playerId", hours, since FROM nudge_players WHERE player_id = $1`, { since: "int" });
/** The one process whose insert lands pushes the nudge. */
const CLAIM = read<{ playerId: string }>(`INSERT INTO nudges (player_id, refresh_at, kind, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING player_id AS "playerId"`);
/**
 * A MySekai save counts unless its archive's digest says partial or its job failed (a wrong key, junk: what a nudge
 * is for); a birthday party's delivery counts once its digest says it refreshed the harvest maps (not partial).
 * (`->> 'partial'` as text: SQLite's '0', PostgreSQL's 'false'.)
 */
const FULL_SAVE_SINCE = read<{ one: number }>(`SELECT 1 AS "one" FROM saves s LEFT JOIN archives a ON a.save_id = s.id
  WHERE s.player_id = $1 AND s.received_at >= $2
    AND ((a.digest IS NULL AND s.data_type = 'mysekai') OR CAST(a.digest ->> 'partial' AS TEXT) IN ('0', 'false'))
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = s.id AND j.state = 'failed') LIMIT 1`);
const LATEST_REGION = read<{ region: Region }>(`SELECT region FROM saves WHERE player_id = $1 AND region IS NOT NULL ORDER BY received_at DESC, id DESC LIMIT 1`);

export function nudgeStore(db: Statements): NudgeStore {
  return {
    setNudge: async (playerId, hours, now = Date.now()) => {
      await (hours === null ? db.all(UNSET, [playerId]) : db.all(SET, [playerId, hours, now]));
    },
    nudgePlayers: () => db.all(PLAYERS, []),
    nudgePlayer: (playerId) => first(db, PLAYER, [playerId]),
    claim: async (playerId, refreshAt, kind, now = Date.now()) => (await db.all(CLAIM, [playerId, refreshAt, kind, now])).length === 1,
    fullSaveSince: async (playerId, since) => (await first(db, FULL_SAVE_SINCE, [playerId, since])) !== null,
    latestRegion: async (playerId) => (await first(db, LATEST_REGION, [playerId]))?.region ?? null,
  };
}
