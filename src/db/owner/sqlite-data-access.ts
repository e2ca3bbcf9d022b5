/**
 * Who may read saves through the data API: API tokens (stored as sha256; a token names the players it may
 * read, or none for all) and the players who opted in to public reads. The one owner of both tables.
 */
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { sha256Hex } from "../../sha256.ts";
import type { Db } from "../open.ts";
import { apiTokens, publicPlayers } from "../schema.ts";
import type { ApiToken } from "../../store/model/owner.ts";


/** What an API token looks like: 192 random bits behind a prefix that says what it is. */
export const newApiToken = () => `msk_${randomBytes(24).toString("base64url")}`;

/** A new token under `name` (replacing one of that name); the token itself is returned once, never stored. */
export function addApiToken(db: Db, name: string, players: string[] | null, now = Date.now()): string {
  const token = newApiToken();
  const row = { name, tokenSha256: sha256Hex(token), players, createdAt: now };
  db.insert(apiTokens).values(row).onConflictDoUpdate({ target: apiTokens.name, set: row }).run();
  return token;
}

export function revokeApiToken(db: Db, name: string): boolean {
  return db.delete(apiTokens).where(eq(apiTokens.name, name)).returning({ name: apiTokens.name }).all().length === 1;
}

export function listApiTokens(db: Db): ApiToken[] {
  return db.select({ name: apiTokens.name, players: apiTokens.players, createdAt: apiTokens.createdAt }).from(apiTokens).orderBy(asc(apiTokens.name)).all();
}

/** The token's grant, matched on its sha256 (the lookup's timing says nothing of the token); null when unknown. */
export function apiTokenGrant(db: Db, token: string): ApiToken | null {
  const row = db.select({ name: apiTokens.name, players: apiTokens.players, createdAt: apiTokens.createdAt }).from(apiTokens).where(eq(apiTokens.tokenSha256, sha256Hex(token))).get();
  return row ?? null;
}

export function setPlayerPublic(db: Db, playerId: string, on: boolean, now = Date.now()): void {
  if (on) db.insert(publicPlayers).values({ playerId, since: now }).onConflictDoNothing().run();
  else db.delete(publicPlayers).where(eq(publicPlayers.playerId, playerId)).run();
}

export function isPlayerPublic(db: Db, playerId: string): boolean {
  return db.select({ id: publicPlayers.playerId }).from(publicPlayers).where(eq(publicPlayers.playerId, playerId)).get() !== undefined;
}
