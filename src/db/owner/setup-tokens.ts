/**
 * The secrets in capture-setup URLs, written once for both stores (src/db/dialect/): the owner's setup token
 * (one, rotatable) and each hub player's link token. A phone cannot send headers, so these travel in the URL
 * path; 192 random bits each. The one owner of `settings` and `players`.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex } from "../../sha256.ts";
import { TOKEN_SHAPE, type LinkedPlayer } from "../../store/model/owner.ts";
import type { SetupLinks } from "../../store/ports/owner.ts";
import { first, read, run, type Statements } from "../dialect/statements.ts";

const SETUP_TOKEN_KEY = "setup_token";
/** The PUBLIC_BASE_URL the service last started with: the CLI prints links under it without the server's env. */
const SERVED_BASE_KEY = "public_base_url";

const newToken = () => randomBytes(24).toString("base64url");

const SETTING = read<{ value: string }>(`SELECT value FROM settings WHERE key = $1`);
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
const PUT = read(`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
const LINKED = `player_id AS "playerId", name, token, created_at AS "createdAt", link_only_since AS "linkOnlySince"`;
const LINKED_KINDS = { createdAt: "int", linkOnlySince: "int" } as const;
const LINK = read(
  `INSERT INTO players (player_id, name, token, token_sha256, created_at) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, token = excluded.token, token_sha256 = excluded.token_sha256, created_at = excluded.created_at`,
);
const LINK_ONLY = read(`UPDATE players SET link_only_since = $2 WHERE player_id = $1 AND link_only_since IS NULL`);
const RESET_LINK_ONLY = read<{ playerId: string }>(`UPDATE players SET link_only_since = NULL WHERE player_id = $1 AND link_only_since IS NOT NULL RETURNING player_id AS "playerId"`);
/** Matched on the token's sha256, so the index lookup leaks nothing of the token. */
const BY_TOKEN = read<LinkedPlayer>(`SELECT ${LINKED} FROM players WHERE token_sha256 = $1`, LINKED_KINDS);
const ALL = read<LinkedPlayer>(`SELECT ${LINKED} FROM players ORDER BY player_id`, LINKED_KINDS);
const ONE = read<LinkedPlayer>(`SELECT ${LINKED} FROM players WHERE player_id = $1`, LINKED_KINDS);

export function setupLinks(db: Statements): SetupLinks {
  const setting = async (key: string) => (await first(db, SETTING, [key]))?.value;
  return {
    /** The current setup token: a read (the service creates it at start), written only if it is missing. */
    setupToken: async (now = Date.now()) => {
      const current = await setting(SETUP_TOKEN_KEY);
      if (current !== undefined) return current;
      await db.all(PUT_IF_MISSING, [SETUP_TOKEN_KEY, newToken(), now]);
      return (await setting(SETUP_TOKEN_KEY))!;
    },
    rotateSetupToken: async (now = Date.now()) => {
      const value = newToken();
      await db.all(PUT, [SETUP_TOKEN_KEY, value, now]);
      return value;
    },
    recordServedBase: async (base, now = Date.now()) => void (await db.all(PUT, [SERVED_BASE_KEY, base, now])),
    servedBase: async () => (await setting(SERVED_BASE_KEY)) ?? null,
    linkPlayer: (playerId, name, now = Date.now()) =>
      db.transaction(function* () {
        const token = newToken();
        // A new link keeps the player's link-only state (LINK leaves it): their uploads stay unforgeable while they reinstall.
        const [before] = yield* run(ONE, [playerId]);
        yield* run(LINK, [playerId, name, token, sha256Hex(token), now]);
        return { player: { playerId, name, token, createdAt: now, linkOnlySince: before?.linkOnlySince ?? null }, replaced: before !== undefined };
      }),
    playerByToken: async (given) => (TOKEN_SHAPE.test(given) ? first(db, BY_TOKEN, [sha256Hex(given)]) : null),
    linkedPlayers: () => db.all(ALL, []),
    linkedPlayer: (playerId) => first(db, ONE, [playerId]),
    markLinkOnly: async (playerId, now = Date.now()) => void (await db.all(LINK_ONLY, [playerId, now])),
    resetLinkOnly: async (playerId) => (await db.all(RESET_LINK_ONLY, [playerId])).length === 1,
  };
}
