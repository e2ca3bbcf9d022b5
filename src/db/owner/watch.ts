/**
 * Watch rules and their matches, written once for both stores over their statements (src/db/dialect/): the one
 * owner of watch_rules and watch_matches.
 */
import type { WatchMatch } from "../../store/model/watch.ts";
import { MAX_RULES } from "../../store/model/watch.ts";
import { EVERY_PLAYER, type WatchRule, type WatchStore } from "../../store/ports/watch.ts";
import { lock, read, run, type Statements } from "../dialect/statements.ts";

const HELD = read<{ resource: string }>(`SELECT resource FROM watch_rules WHERE player_id = $1`);
/** One rule (a rule already there stays): at most MAX_RULES a call, in one transaction. */
const ADD = read(`INSERT INTO watch_rules (player_id, resource, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`);
const REMOVE = read<{ resource: string }>(`DELETE FROM watch_rules WHERE player_id = $1 AND resource = ANY($2) RETURNING resource`);
const LIST_ALL = read<WatchRule>(`SELECT player_id AS "playerId", resource, created_at AS "createdAt" FROM watch_rules ORDER BY player_id, resource`, { createdAt: "int" });
const LIST_ONE = read<WatchRule>(`SELECT player_id AS "playerId", resource, created_at AS "createdAt" FROM watch_rules WHERE player_id = $1 ORDER BY resource`, { createdAt: "int" });
const WATCHED_BY = read<{ resource: string }>(`SELECT resource FROM watch_rules WHERE player_id = $1 OR player_id = '${EVERY_PLAYER}'`);
const RECORD_MATCHES = read(
  `INSERT INTO watch_matches (save_id, player_id, matches, created_at) VALUES ($1, $2, $3, $4)
   ON CONFLICT (save_id) DO UPDATE SET matches = excluded.matches, created_at = excluded.created_at`,
);
const MATCHES_OF = read<{ saveId: number; matches: WatchMatch[] }>(`SELECT save_id AS "saveId", matches FROM watch_matches WHERE save_id = ANY($1)`, { saveId: "int", matches: "json" });

export function watchStore(db: Statements): WatchStore {
  return {
    add: (playerId, resources, now = Date.now()) =>
      db.transaction(function* () {
        // Two processes adding for one player count each other's rules: the cap holds.
        yield* lock("watch_rules", playerId);
        const held = new Set((yield* run(HELD, [playerId])).map((row) => row.resource));
        const fresh = [...new Set(resources)].filter((resource) => !held.has(resource));
        if (held.size + fresh.length > MAX_RULES) return "too_many" as const;
        for (const resource of fresh) yield* run(ADD, [playerId, resource, now]);
        return fresh.length;
      }),
    remove: async (playerId, resources) => (resources.length === 0 ? 0 : (await db.all(REMOVE, [playerId, resources])).length),
    list: (playerId) => (playerId === undefined ? db.all(LIST_ALL, []) : db.all(LIST_ONE, [playerId])),
    watchedBy: async (playerId) => new Set((await db.all(WATCHED_BY, [playerId])).map((row) => row.resource)),
    setTicked: async (playerId, offered, ticked, now = Date.now()) => {
      const want = new Set(ticked.filter((resource) => offered.includes(resource)));
      const drop = offered.filter((resource) => !want.has(resource));
      await db.transaction(function* () {
        if (drop.length > 0) yield* run(REMOVE, [playerId, drop]);
        for (const resource of want) yield* run(ADD, [playerId, resource, now]);
      });
    },
    recordMatches: async (saveId, playerId, matches, now = Date.now()) => {
      if (matches.length > 0) await db.all(RECORD_MATCHES, [saveId, playerId, JSON.stringify(matches), now]);
    },
    matchesOf: async (saveIds) => new Map(saveIds.length === 0 ? [] : (await db.all(MATCHES_OF, [saveIds])).map((row) => [row.saveId, row.matches])),
  };
}
