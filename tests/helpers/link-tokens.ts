/**
 * Players' link tokens and the setup token as the owner sees them: the store holds them sealed with the link key
 * (src/link-key.ts), so a test reads them as the owner's pages and CLI do, with the key beside the data folder.
 */
import { loadTokenSeal } from "../../src/link-key.ts";
import type { Deployment } from "./deployments.ts";
import type { RunningServer } from "./in-process.ts";
import { reads } from "./store-reads.ts";

const sealOf = (server: RunningServer) => loadTokenSeal(null, server.dataDir);

/** The current setup token of a server. */
export async function setupTokenOf(server: RunningServer): Promise<string> {
  const stored = await reads(server).storedSetupToken();
  return sealOf(server).unseal(stored.slice(stored.indexOf(":") + 1), "setup")!;
}

/** A linked player's token on a server. */
export async function linkTokenOf(server: RunningServer, playerId: string): Promise<string> {
  const stored = await reads(server).storedPlayerToken(playerId);
  if (stored === undefined) throw new Error(`player ${playerId} has no link`);
  return sealOf(server).unseal(stored, `player:${playerId}`)!;
}

/** What a dump of the store shows: every text value of every table, and each of its parts between ":" and "." (a stored value may join several). */
export async function dumpedValues(deployment: Deployment, server: RunningServer): Promise<string[]> {
  const tables = deployment.hub
    ? (await deployment.query<{ name: string }>(server, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).map((t) => t.name)
    : (await deployment.query<{ name: string }>(server, "SELECT name FROM sqlite_master WHERE type = 'table'")).map((t) => t.name);
  const values: string[] = [];
  for (const table of tables) {
    const rows = await deployment.query<Record<string, unknown>>(server, `SELECT * FROM "${table}"`);
    for (const row of rows) for (const value of Object.values(row)) if (typeof value === "string") values.push(value, ...value.split(/[:.]/));
  }
  return [...new Set(values)];
}
