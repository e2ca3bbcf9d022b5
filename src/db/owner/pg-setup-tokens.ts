/** The setup token and hub players' links on a hub's PostgreSQL, the same rows as SQLite's (src/db/setup-tokens.ts). */
import { asc, eq } from "drizzle-orm";
import type { SetupLinks } from "../../store/ports/owner.ts";
import { sha256Hex } from "../../sha256.ts";
import { newToken, SERVED_BASE_KEY, SETUP_TOKEN_KEY } from "./sqlite-setup-tokens.ts";
import type { PgDb } from "../pg/open.ts";
import { players, settings } from "../pg/schema.ts";
import { TOKEN_SHAPE } from "../../store/model/owner.ts";

export function pgSetupLinks(db: PgDb): SetupLinks {
  const setting = async (key: string) => (await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)))[0]?.value;
  const put = (key: string, value: string, now: number) =>
    db.insert(settings).values({ key, value, updatedAt: now }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
  const linked = { playerId: players.playerId, name: players.name, token: players.token, createdAt: players.createdAt };
  return {
    setupToken: async (now = Date.now()) => {
      const current = await setting(SETUP_TOKEN_KEY);
      if (current !== undefined) return current;
      // Processes starting at once: the first insert wins and every one reads it back.
      await db.insert(settings).values({ key: SETUP_TOKEN_KEY, value: newToken(), updatedAt: now }).onConflictDoNothing();
      return (await setting(SETUP_TOKEN_KEY))!;
    },
    rotateSetupToken: async (now = Date.now()) => {
      const value = newToken();
      await put(SETUP_TOKEN_KEY, value, now);
      return value;
    },
    recordServedBase: async (base, now = Date.now()) => void (await put(SERVED_BASE_KEY, base, now)),
    servedBase: async () => (await setting(SERVED_BASE_KEY)) ?? null,
    linkPlayer: (playerId, name, now = Date.now()) =>
      db.transaction(async (tx) => {
        const token = newToken();
        const replaced = (await tx.select({ id: players.playerId }).from(players).where(eq(players.playerId, playerId))).length === 1;
        const row = { playerId, name, token, tokenSha256: sha256Hex(token), createdAt: now };
        await tx.insert(players).values(row).onConflictDoUpdate({ target: players.playerId, set: { name, token, tokenSha256: row.tokenSha256, createdAt: now } });
        return { player: { playerId, name, token, createdAt: now }, replaced };
      }),
    playerByToken: async (given) => {
      if (!TOKEN_SHAPE.test(given)) return null;
      return (await db.select(linked).from(players).where(eq(players.tokenSha256, sha256Hex(given))))[0] ?? null;
    },
    linkedPlayers: () => db.select(linked).from(players).orderBy(asc(players.playerId)),
    linkedPlayer: async (playerId) => (await db.select(linked).from(players).where(eq(players.playerId, playerId)))[0] ?? null,
  };
}
