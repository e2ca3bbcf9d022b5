/**
 * The secrets in capture-setup URLs: the owner's setup token (one, rotatable) and each hub player's link
 * token. A phone cannot send headers, so these travel in the URL path; 192 random bits each.
 */
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../open.ts";
import { sha256Hex } from "../../sha256.ts";
import { players, settings } from "../schema.ts";
import { TOKEN_SHAPE, type LinkedPlayer } from "../../store/model/owner.ts";

export const SETUP_TOKEN_KEY = "setup_token";
/** The PUBLIC_BASE_URL the service last started with: the CLI prints links under it without the server's env. */
export const SERVED_BASE_KEY = "public_base_url";

export const newToken = () => randomBytes(24).toString("base64url");


/** The current setup token: a read (the service creates it at start), written only if it is missing. */
export function setupToken(db: Db, now = Date.now()): string {
  const read = () => db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETUP_TOKEN_KEY)).get()?.value;
  const current = read();
  if (current !== undefined) return current;
  db.insert(settings).values({ key: SETUP_TOKEN_KEY, value: newToken(), updatedAt: now }).onConflictDoNothing().run();
  return read()!;
}

/** A new setup token: every module and script URL made with the old one answers 404 from now on. */
export function rotateSetupToken(db: Db, now = Date.now()): string {
  const value = newToken();
  db.insert(settings)
    .values({ key: SETUP_TOKEN_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
    .run();
  return value;
}

/** Remembers the base URL the service serves links under (called at start when PUBLIC_BASE_URL is set). */
export function recordServedBase(db: Db, base: string, now = Date.now()): void {
  db.insert(settings)
    .values({ key: SERVED_BASE_KEY, value: base, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: base, updatedAt: now } })
    .run();
}

export function servedBase(db: Db): string | null {
  return db.select({ value: settings.value }).from(settings).where(eq(settings.key, SERVED_BASE_KEY)).get()?.value ?? null;
}


/** Creates a player's link, or gives an existing player a new one (the old link stops working). */
export function linkPlayer(db: Db, playerId: string, name: string | null, now = Date.now()): { player: LinkedPlayer; replaced: boolean } {
  const token = newToken();
  const replaced = db.select({ id: players.playerId }).from(players).where(eq(players.playerId, playerId)).get() !== undefined;
  const row = { playerId, name, token, tokenSha256: sha256Hex(token), createdAt: now };
  db.insert(players)
    .values(row)
    .onConflictDoUpdate({ target: players.playerId, set: { name: row.name, token, tokenSha256: row.tokenSha256, createdAt: now } })
    .run();
  return { player: { playerId, name, token, createdAt: now }, replaced };
}

/** The player whose link token this is (matched on its sha256, so the index lookup leaks nothing of the token). */
export function playerByToken(db: Db, given: string): LinkedPlayer | null {
  if (!TOKEN_SHAPE.test(given)) return null;
  const row = db.select().from(players).where(eq(players.tokenSha256, sha256Hex(given))).get();
  return row ? { playerId: row.playerId, name: row.name, token: row.token, createdAt: row.createdAt } : null;
}

export function linkedPlayers(db: Db): LinkedPlayer[] {
  return db
    .select({ playerId: players.playerId, name: players.name, token: players.token, createdAt: players.createdAt })
    .from(players)
    .orderBy(asc(players.playerId))
    .all();
}

export function linkedPlayer(db: Db, playerId: string): LinkedPlayer | null {
  return (
    db
      .select({ playerId: players.playerId, name: players.name, token: players.token, createdAt: players.createdAt })
      .from(players)
      .where(eq(players.playerId, playerId))
      .get() ?? null
  );
}
