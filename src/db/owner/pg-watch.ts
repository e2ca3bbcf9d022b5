/** Watch rules and matches on a hub's PostgreSQL, the same rows as SQLite's (src/db/watch.ts). */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { WatchMatch } from "../../watch/match.ts";
import { MAX_RULES } from "../../watch/resources.ts";
import { EVERY_PLAYER, type WatchStore } from "../../store/ports/watch.ts";
import type { PgDb } from "../pg/open.ts";
import { watchMatches, watchRules } from "../pg/schema.ts";

const byPlayer = (playerId: string) => eq(watchRules.playerId, playerId);

export function pgWatchStore(db: PgDb): WatchStore {
  return {
    add: (playerId, resources, now = Date.now()) =>
      db.transaction(async (tx) => {
        // Two processes adding for one player count each other's rules: the cap holds.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('watch_rules'), hashtext(${playerId}))`);
        const held = new Set((await tx.select({ resource: watchRules.resource }).from(watchRules).where(byPlayer(playerId))).map((r) => r.resource));
        const fresh = [...new Set(resources)].filter((r) => !held.has(r));
        if (held.size + fresh.length > MAX_RULES) return "too_many" as const;
        if (fresh.length > 0) await tx.insert(watchRules).values(fresh.map((resource) => ({ playerId, resource, createdAt: now }))).onConflictDoNothing();
        return fresh.length;
      }),
    remove: async (playerId, resources) =>
      resources.length === 0 ? 0 : (await db.delete(watchRules).where(and(byPlayer(playerId), inArray(watchRules.resource, resources))).returning({ r: watchRules.resource })).length,
    list: (playerId) =>
      db
        .select()
        .from(watchRules)
        .where(playerId === undefined ? undefined : byPlayer(playerId))
        .orderBy(asc(watchRules.playerId), asc(watchRules.resource)),
    watchedBy: async (playerId) =>
      new Set((await db.select({ resource: watchRules.resource }).from(watchRules).where(or(byPlayer(playerId), byPlayer(EVERY_PLAYER)))).map((r) => r.resource)),
    setTicked: async (playerId, offered, ticked, now = Date.now()) => {
      const want = new Set(ticked.filter((r) => offered.includes(r)));
      await db.transaction(async (tx) => {
        const drop = offered.filter((r) => !want.has(r));
        if (drop.length > 0) await tx.delete(watchRules).where(and(byPlayer(playerId), inArray(watchRules.resource, drop)));
        if (want.size > 0) await tx.insert(watchRules).values([...want].map((resource) => ({ playerId, resource, createdAt: now }))).onConflictDoNothing();
      });
    },
    recordMatches: async (saveId, playerId, matches, now = Date.now()) => {
      if (matches.length === 0) return;
      await db.insert(watchMatches).values({ saveId, playerId, matches, createdAt: now }).onConflictDoUpdate({ target: watchMatches.saveId, set: { matches, createdAt: now } });
    },
    matchesOf: async (saveIds) => {
      if (saveIds.length === 0) return new Map();
      const rows = await db.select({ saveId: watchMatches.saveId, matches: watchMatches.matches }).from(watchMatches).where(inArray(watchMatches.saveId, saveIds));
      return new Map(rows.map((r) => [r.saveId, r.matches as WatchMatch[]]));
    },
  };
}
