/**
 * The secrets in capture-setup URLs, written once for both stores (src/db/dialect/): the owner's setup token
 * (one, rotatable) and each hub player's link token. A phone cannot send headers, so these travel in the URL
 * path; 192 random bits each. Stored as their sha256 (what requests are matched on) and sealed with the link key
 * (src/link-key.ts, kept outside the database: what the owner's pages show again), never in clear: a database
 * dump alone opens no link. The one owner of `settings` and `players`.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { SEALED, type TokenSeal } from "../../link-key.ts";
import { sha256Hex } from "../../sha256.ts";
import { TOKEN_SHAPE, type LinkedPlayer } from "../../store/model/owner.ts";
import type { SetupLinks } from "../../store/ports/owner.ts";
import { first, read, run, type Statements } from "../dialect/statements.ts";

/** Its value: `<sha256 hex>:<sealed token>` (an older version's: the token in clear, sealed at the next start). */
const SETUP_TOKEN_KEY = "setup_token";
const SETUP_PLACE = "setup";
const playerPlace = (playerId: string) => `player:${playerId}`;
/** The PUBLIC_BASE_URL the service last started with: the CLI prints links under it without the server's env. */
const SERVED_BASE_KEY = "public_base_url";

const newToken = () => randomBytes(24).toString("base64url");

/** A setting's value, and its plain write: also run inside the sessions' transaction (src/db/owner/sessions.ts). */
export const SETTING = read<{ value: string }>(`SELECT value FROM settings WHERE key = $1`);
/** Processes starting at once: the first insert wins and every one reads it back. */
const PUT_IF_MISSING = read(`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`);
/** updated_at only moves forward: two writes within one millisecond still change the stamp every process compares. */
const PUT_MOVING_STAMP = read(
  `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
   ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = CASE WHEN excluded.updated_at > settings.updated_at THEN excluded.updated_at ELSE settings.updated_at + 1 END`,
);

/** A setting other processes follow by its stamp (the owner's catalogue update, src/db/owner/catalogue.ts). */
export async function putSettingMovingStamp(db: Statements, key: string, value: string, now: number): Promise<void> {
  await db.all(PUT_MOVING_STAMP, [key, value, now]);
}
export const PUT = read(`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
const LINKED = `player_id AS "playerId", name, token AS "sealed", created_at AS "createdAt", link_only_since AS "linkOnlySince"`;
const LINKED_KINDS = { createdAt: "int", linkOnlySince: "int" } as const;
const LINK = read(
  `INSERT INTO players (player_id, name, token, token_sha256, created_at) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, token = excluded.token, token_sha256 = excluded.token_sha256, created_at = excluded.created_at`,
);
const LINK_ONLY = read(`UPDATE players SET link_only_since = $2 WHERE player_id = $1 AND link_only_since IS NULL`);
const RESET_LINK_ONLY = read<{ playerId: string }>(`UPDATE players SET link_only_since = NULL WHERE player_id = $1 AND link_only_since IS NOT NULL RETURNING player_id AS "playerId"`);
type StoredPlayer = Omit<LinkedPlayer, "token"> & { sealed: string };
/** Matched on the token's sha256, so the index lookup leaks nothing of the token. */
const BY_TOKEN = read<StoredPlayer>(`SELECT ${LINKED} FROM players WHERE token_sha256 = $1`, LINKED_KINDS);
const ALL = read<StoredPlayer>(`SELECT ${LINKED} FROM players ORDER BY player_id`, LINKED_KINDS);
const ONE = read<StoredPlayer>(`SELECT ${LINKED} FROM players WHERE player_id = $1`, LINKED_KINDS);
const CLEAR_LINKS = read<{ playerId: string; token: string }>(`SELECT player_id AS "playerId", token FROM players WHERE token NOT LIKE '${SEALED}%'`);
/** Its sha256 stays: an older version stored it beside the clear token, and a link is matched on it. */
const SEAL_LINK = read(`UPDATE players SET token = $3 WHERE player_id = $1 AND token = $2`);
const SEAL_SETUP = read(`UPDATE settings SET value = $2 WHERE key = '${SETUP_TOKEN_KEY}' AND value = $1`);

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function setupLinks(db: Statements, seal: TokenSeal): SetupLinks {
  const setting = async (key: string) => (await first(db, SETTING, [key]))?.value;
  const setupValue = (token: string) => `${sha256Hex(token)}:${seal.seal(token, SETUP_PLACE)}`;
  /** The stored setup token's sha256 and the token (null when another key sealed it). */
  const storedSetup = (value: string) => {
    const colon = value.indexOf(":");
    if (colon < 0) return { sha256: sha256Hex(value), token: value };
    return { sha256: value.slice(0, colon), token: seal.unseal(value.slice(colon + 1), SETUP_PLACE) };
  };
  const shown = ({ sealed, ...player }: StoredPlayer): LinkedPlayer => ({ ...player, token: seal.unseal(sealed, playerPlace(player.playerId)) });
  return {
    /** The current setup token: a read (the service creates it at start), written only if it is missing. */
    setupToken: async (now = Date.now()) => {
      const current = await setting(SETUP_TOKEN_KEY);
      if (current !== undefined) return storedSetup(current).token;
      await db.all(PUT_IF_MISSING, [SETUP_TOKEN_KEY, setupValue(newToken()), now]);
      return storedSetup((await setting(SETUP_TOKEN_KEY))!).token;
    },
    setupTokenMatches: async (given) => {
      const current = TOKEN_SHAPE.test(given) ? await setting(SETUP_TOKEN_KEY) : undefined;
      return current !== undefined && sameHex(sha256Hex(given), storedSetup(current).sha256);
    },
    rotateSetupToken: async (now = Date.now()) => {
      const token = newToken();
      await db.all(PUT, [SETUP_TOKEN_KEY, setupValue(token), now]);
      return token;
    },
    sealClearTokens: () =>
      db.transaction(function* () {
        // Only what has a token's shape is an older version's clear token: any other value (a later version's seal) stays.
        const links = (yield* run(CLEAR_LINKS, [])).filter(({ token }) => TOKEN_SHAPE.test(token));
        for (const { playerId, token } of links) yield* run(SEAL_LINK, [playerId, token, seal.seal(token, playerPlace(playerId))]);
        const [setup] = yield* run(SETTING, [SETUP_TOKEN_KEY]);
        const clearSetup = setup !== undefined && TOKEN_SHAPE.test(setup.value);
        if (clearSetup) yield* run(SEAL_SETUP, [setup.value, setupValue(setup.value)]);
        return links.length + (clearSetup ? 1 : 0);
      }),
    recordServedBase: async (base, now = Date.now()) => void (await db.all(PUT, [SERVED_BASE_KEY, base, now])),
    servedBase: async () => (await setting(SERVED_BASE_KEY)) ?? null,
    linkPlayer: (playerId, name, now = Date.now()) =>
      db.transaction(function* () {
        const token = newToken();
        // A new link keeps the player's link-only state (LINK leaves it): their uploads stay unforgeable while they reinstall.
        const [before] = yield* run(ONE, [playerId]);
        yield* run(LINK, [playerId, name, seal.seal(token, playerPlace(playerId)), sha256Hex(token), now]);
        return { player: { playerId, name, token, createdAt: now, linkOnlySince: before?.linkOnlySince ?? null }, replaced: before !== undefined };
      }),
    playerByToken: async (given) => {
      const found = TOKEN_SHAPE.test(given) ? await first(db, BY_TOKEN, [sha256Hex(given)]) : null;
      // It matched the stored hash: the token is the one given, whatever key sealed it.
      return found === null ? null : { ...shown(found), token: given };
    },
    linkedPlayers: async () => (await db.all(ALL, [])).map(shown),
    linkedPlayer: async (playerId) => {
      const found = await first(db, ONE, [playerId]);
      return found === null ? null : shown(found);
    },
    markLinkOnly: async (playerId, now = Date.now()) => void (await db.all(LINK_ONLY, [playerId, now])),
    resetLinkOnly: async (playerId) => (await db.all(RESET_LINK_ONLY, [playerId])).length === 1,
  };
}
