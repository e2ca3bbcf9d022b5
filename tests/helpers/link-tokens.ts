/**
 * Players' link tokens and the setup token as the owner sees them: the store holds them sealed with the link key
 * (src/link-key.ts), so a test reads them as the owner's pages and CLI do, with the key beside the data folder.
 */
import { loadTokenSeal, tokenSeal } from "../../src/link-key.ts";
import { one } from "./db.ts";
import type { RunningServer } from "./server.ts";

/** The key of the store-level tests (two stores on one database with one key stand for two processes of a hub). */
export const TEST_SEAL = tokenSeal("a test link key, 32 characters or more");

const sealOf = (server: RunningServer) => loadTokenSeal(null, server.dataDir);

/** The current setup token of a server on SQLite. */
export function setupTokenOf(server: RunningServer): string {
  const stored = one<{ value: string }>(server, "SELECT value FROM settings WHERE key = 'setup_token'")!.value;
  return sealOf(server).unseal(stored.slice(stored.indexOf(":") + 1), "setup")!;
}

/** A linked player's token on a server on SQLite. */
export function linkTokenOf(server: RunningServer, playerId: string): string {
  const stored = one<{ token: string }>(server, "SELECT token FROM players WHERE player_id = ?", playerId)!.token;
  return sealOf(server).unseal(stored, `player:${playerId}`)!;
}
