/** A player's watch rules and what they matched on a hub's PostgreSQL, as ../schema-watch.ts (src/db/owner/watch.ts owns both). */
import { bigint, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { WatchMatch } from "../../store/model/watch.ts";
import { saves } from "./schema.ts";

export const watchRules = pgTable(
  "watch_rules",
  {
    playerId: text("player_id").notNull(),
    resource: text("resource").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.playerId, t.resource] })],
);

export const watchMatches = pgTable("watch_matches", {
  saveId: integer("save_id")
    .primaryKey()
    .references(() => saves.id, { onDelete: "cascade" }),
  playerId: text("player_id").notNull(),
  matches: jsonb("matches").notNull().$type<WatchMatch[]>(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});

export const nudgePlayers = pgTable("nudge_players", {
  playerId: text("player_id").primaryKey(),
  hours: integer("hours").notNull(),
  since: bigint("since", { mode: "number" }).notNull(),
});

export const nudges = pgTable(
  "nudges",
  {
    playerId: text("player_id").notNull(),
    refreshAt: bigint("refresh_at", { mode: "number" }).notNull(),
    kind: text("kind").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.playerId, t.refreshAt] })],
);
