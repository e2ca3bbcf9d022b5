/** Watch rules and matches over SQLite (the one owner of watch_rules and watch_matches here); a hub's: pg/watch.ts. */
import { and, asc, eq, inArray, or } from "drizzle-orm";
import type { WatchMatch } from "../../watch/match.ts";
import { MAX_RULES } from "../../watch/resources.ts";
import { EVERY_PLAYER, type WatchStore } from "../../store/ports/watch.ts";
import type { Db } from "../open.ts";
import { watchMatches, watchRules } from "../schema.ts";

const byPlayer = (playerId: string) => eq(watchRules.playerId, playerId);

export function sqliteWatchStore(db: Db): WatchStore {
  return {
    add: async (playerId, resources, now = Date.now()) =>
      db.transaction((tx) => {
        const held = new Set(tx.select({ resource: watchRules.resource }).from(watchRules).where(byPlayer(playerId)).all().map((r) => r.resource));
        const fresh = [...new Set(resources)].filter((r) => !held.has(r));
        if (held.size + fresh.length > MAX_RULES) return "too_many" as const;
        if (fresh.length > 0) tx.insert(watchRules).values(fresh.map((resource) => ({ playerId, resource, createdAt: now }))).onConflictDoNothing().run();
        return fresh.length;
      }),
    remove: async (playerId, resources) =>
      resources.length === 0 ? 0 : db.delete(watchRules).where(and(byPlayer(playerId), inArray(watchRules.resource, resources))).returning({ r: watchRules.resource }).all().length,
    list: async (playerId) =>
      db
        .select()
        .from(watchRules)
        .where(playerId === undefined ? undefined : byPlayer(playerId))
        .orderBy(asc(watchRules.playerId), asc(watchRules.resource))
        .all(),
    watchedBy: async (playerId) =>
      new Set(db.select({ resource: watchRules.resource }).from(watchRules).where(or(byPlayer(playerId), byPlayer(EVERY_PLAYER))).all().map((r) => r.resource)),
    setTicked: async (playerId, offered, ticked, now = Date.now()) => {
      const want = new Set(ticked.filter((r) => offered.includes(r)));
      db.transaction((tx) => {
        const drop = offered.filter((r) => !want.has(r));
        if (drop.length > 0) tx.delete(watchRules).where(and(byPlayer(playerId), inArray(watchRules.resource, drop))).run();
        if (want.size > 0) tx.insert(watchRules).values([...want].map((resource) => ({ playerId, resource, createdAt: now }))).onConflictDoNothing().run();
      });
    },
    recordMatches: async (saveId, playerId, matches, now = Date.now()) => {
      if (matches.length === 0) return;
      const row = { saveId, playerId, matches, createdAt: now };
      db.insert(watchMatches).values(row).onConflictDoUpdate({ target: watchMatches.saveId, set: { matches, createdAt: now } }).run();
    },
    matchesOf: async (saveIds) => {
      if (saveIds.length === 0) return new Map();
      const rows = db.select({ saveId: watchMatches.saveId, matches: watchMatches.matches }).from(watchMatches).where(inArray(watchMatches.saveId, saveIds)).all();
      return new Map(rows.map((r) => [r.saveId, r.matches as WatchMatch[]]));
    },
  };
}
