/** The owner's and players' tables of the SQLite file: setup links, API access, consumer webhooks, owner sessions and the login throttle. */
import { foreignKey, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Small named values the service keeps for itself (the setup token: its sha256 and the token sealed, src/db/owner/setup-tokens.ts). */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Players with a personal setup link (hubs): uploads through it are accepted for this player id only. */
export const players = sqliteTable(
  "players",
  {
    playerId: text("player_id").primaryKey(),
    name: text("name"),
    /**
     * The link's secret sealed with the link key (`v1.…`, src/link-key.ts), shown to the owner again on demand; an
     * older version's clear token until the next start seals it. Useless without the key, which is never stored here.
     */
    sealedToken: text("token").notNull(),
    /** sha256 hex of the token: requests are matched on it, so a lookup's timing says nothing about the token. */
    tokenSha256: text("token_sha256").notNull(),
    /**
     * When the player first uploaded through their link: from then on an upload or report naming them without it
     * is refused (cannot be forged); null until then, and again once the owner resets it.
     */
    linkOnlySince: integer("link_only_since"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("players_token_sha256_unique").on(t.tokenSha256)],
);

/** Tokens that read players' saves through /api (src/db/owner/data-access.ts): stored as sha256, shown once. */
export const apiTokens = sqliteTable("api_tokens", {
  name: text("name").primaryKey(),
  tokenSha256: text("token_sha256").notNull().unique(),
  /** The player ids this token may read; null: every player of this server. */
  players: text("players", { mode: "json" }).$type<string[]>(),
  createdAt: integer("created_at").notNull(),
});

/**
 * lunabot's `/msr` subscriptions: per API token and region the [uid, mode] list its last PUT update_msr_sub sent,
 * so any process of a hub answers the GET that follows. A PUT of the same list again (every few seconds) writes
 * this row only; a list a day old is swept with its players.
 */
export const msrSubscriptions = sqliteTable(
  "msr_subscriptions",
  {
    tokenName: text("token_name").notNull(),
    region: text("region").notNull(),
    /** The client address that sent the list, and the list's length in bytes: a GET is matched on both. */
    peer: text("peer").notNull(),
    listBytes: integer("list_bytes").notNull(),
    /** sha256 hex of the list as sent: the same list again rewrites none of its players. */
    listSha256: text("list_sha256").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenName, t.region] }), index("msr_subscriptions_updated_idx").on(t.updatedAt)],
);

/** A list's [uid, mode] pairs in its order (at most 1,000); the job queue looks players up here (jobs.subscribed). */
export const msrSubscriptionPlayers = sqliteTable(
  "msr_subscription_players",
  {
    tokenName: text("token_name").notNull(),
    region: text("region").notNull(),
    position: integer("position").notNull(),
    playerId: text("player_id").notNull(),
    mode: text("mode").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenName, t.region, t.position] }),
    index("msr_subscription_players_player_idx").on(t.playerId),
    foreignKey({ name: "msr_subscription_players_list_fk", columns: [t.tokenName, t.region], foreignColumns: [msrSubscriptions.tokenName, msrSubscriptions.region] }).onDelete("cascade"),
  ],
);

/** Players who opted in to public reads (/public/…), by the owner's CLI or on their own page. */
export const publicPlayers = sqliteTable("public_players", {
  playerId: text("player_id").primaryKey(),
  since: integer("since").notNull(),
});

/**
 * Consumer webhooks (src/db/deliveries/data-webhooks.ts): after each new save, a POST to `url` with {server},
 * {data_type} and {user_id} filled in: empty (the bot pulls the save), or carrying it as `payload` says (raw,
 * json-zstd), sent only when `checkUrl` (if any) answers 200. `url`, `bearer` and `checkUrl` are secrets: never
 * shown again.
 */
export const dataWebhooks = sqliteTable("data_webhooks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  url: text("url").notNull(),
  bearer: text("bearer"),
  payload: text("payload", { enum: ["empty", "raw", "json-zstd"] }).notNull().default("empty"),
  checkUrl: text("check_url"),
  createdAt: integer("created_at").notNull(),
});

/**
 * Owner login sessions, in the store so a session opened on one process holds on every other: the sha256 of
 * the cookie's random id (the id itself is never stored) and its expiry.
 */
export const ownerSessions = sqliteTable(
  "owner_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("owner_sessions_expiry_idx").on(t.expiresAt)],
);

/** Wrong owner tokens per peer (the login throttle), shared by every process. */
export const loginFailures = sqliteTable(
  "login_failures",
  {
    peer: text("peer").primaryKey(),
    failures: integer("failures").notNull(),
    lastFailure: integer("last_failure").notNull(),
  },
  (t) => [index("login_failures_last_idx").on(t.lastFailure)],
);
