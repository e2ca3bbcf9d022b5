/** API tokens and public switches on a hub's PostgreSQL, the same rows as SQLite's (src/db/data-access.ts). */
import { asc, eq } from "drizzle-orm";
import type { DataAccess } from "../../store/ports/owner.ts";
import { sha256Hex } from "../../sha256.ts";
import { newApiToken } from "./sqlite-data-access.ts";
import type { PgDb } from "../pg/open.ts";
import { apiTokens, publicPlayers } from "../pg/schema.ts";

export function pgDataAccess(db: PgDb): DataAccess {
  const grant = { name: apiTokens.name, players: apiTokens.players, createdAt: apiTokens.createdAt };
  return {
    addApiToken: async (name, players, now = Date.now()) => {
      const token = newApiToken();
      const row = { name, tokenSha256: sha256Hex(token), players, createdAt: now };
      await db.insert(apiTokens).values(row).onConflictDoUpdate({ target: apiTokens.name, set: row });
      return token;
    },
    revokeApiToken: async (name) => (await db.delete(apiTokens).where(eq(apiTokens.name, name)).returning({ name: apiTokens.name })).length === 1,
    listApiTokens: () => db.select(grant).from(apiTokens).orderBy(asc(apiTokens.name)),
    apiTokenGrant: async (token) => (await db.select(grant).from(apiTokens).where(eq(apiTokens.tokenSha256, sha256Hex(token))))[0] ?? null,
    setPlayerPublic: async (playerId, on, now = Date.now()) => {
      if (on) await db.insert(publicPlayers).values({ playerId, since: now }).onConflictDoNothing();
      else await db.delete(publicPlayers).where(eq(publicPlayers.playerId, playerId));
    },
    isPlayerPublic: async (playerId) => (await db.select({ id: publicPlayers.playerId }).from(publicPlayers).where(eq(publicPlayers.playerId, playerId))).length === 1,
  };
}
