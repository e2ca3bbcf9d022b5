/**
 * Who may read saves through the data API, written once for both stores (src/db/dialect/): API tokens (stored as
 * sha256; a token names the players it may read, or none for all) and the players who opted in to public reads.
 * The one owner of both tables.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex } from "../../sha256.ts";
import type { ApiToken } from "../../store/model/owner.ts";
import type { DataAccess } from "../../store/ports/owner.ts";
import { first, read, type Statements } from "../dialect/statements.ts";

/** What an API token looks like: 192 random bits behind a prefix that says what it is. */
const newApiToken = () => `msk_${randomBytes(24).toString("base64url")}`;

const GRANT = `name, players, created_at AS "createdAt"`;
const grantKinds = { players: "json", createdAt: "int" } as const;
const ADD = read(
  `INSERT INTO api_tokens (name, token_sha256, players, created_at) VALUES ($1, $2, $3, $4)
   ON CONFLICT (name) DO UPDATE SET token_sha256 = excluded.token_sha256, players = excluded.players, created_at = excluded.created_at`,
);
const REVOKE = read<{ name: string }>(`DELETE FROM api_tokens WHERE name = $1 RETURNING name`);
const LIST = read<ApiToken>(`SELECT ${GRANT} FROM api_tokens ORDER BY name`, grantKinds);
/** Matched on the token's sha256: the lookup's timing says nothing of the token. */
const BY_TOKEN = read<ApiToken>(`SELECT ${GRANT} FROM api_tokens WHERE token_sha256 = $1`, grantKinds);
const SET_PUBLIC = read(`INSERT INTO public_players (player_id, since) VALUES ($1, $2) ON CONFLICT DO NOTHING`);
const UNSET_PUBLIC = read(`DELETE FROM public_players WHERE player_id = $1`);
const IS_PUBLIC = read<{ playerId: string }>(`SELECT player_id AS "playerId" FROM public_players WHERE player_id = $1`);

export function dataAccess(db: Statements): DataAccess {
  return {
    addApiToken: async (name, players, now = Date.now()) => {
      const token = newApiToken();
      await db.all(ADD, [name, sha256Hex(token), players === null ? null : JSON.stringify(players), now]);
      return token;
    },
    revokeApiToken: async (name) => (await db.all(REVOKE, [name])).length === 1,
    listApiTokens: () => db.all(LIST, []),
    apiTokenGrant: (token) => first(db, BY_TOKEN, [sha256Hex(token)]),
    setPlayerPublic: async (playerId, on, now = Date.now()) => {
      await (on ? db.all(SET_PUBLIC, [playerId, now]) : db.all(UNSET_PUBLIC, [playerId]));
    },
    isPlayerPublic: async (playerId) => (await first(db, IS_PUBLIC, [playerId])) !== null,
  };
}
