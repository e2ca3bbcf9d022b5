/** A player's watch rules and what they matched (src/db/owner/watch.ts owns both). */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { WatchMatch } from "../store/model/watch.ts";
import { saves } from "./schema.ts";

/** Resources a player watches, as `type:id`; player `*` watches for every player. */
export const watchRules = sqliteTable(
  "watch_rules",
  {
    playerId: text("player_id").notNull(),
    resource: text("resource").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.playerId, t.resource] })],
);

/** The watched resources a save held, recorded by its notify stage: what the player's history shows. */
export const watchMatches = sqliteTable("watch_matches", {
  saveId: integer("save_id")
    .primaryKey()
    .references(() => saves.id, { onDelete: "cascade" }),
  playerId: text("player_id").notNull(),
  matches: text("matches", { mode: "json" }).notNull().$type<WatchMatch[]>(),
  createdAt: integer("created_at").notNull(),
});

/** Players who asked to be nudged when a refresh goes uncaptured (src/db/owner/nudges.ts owns both nudge tables). */
export const nudgePlayers = sqliteTable("nudge_players", {
  playerId: text("player_id").primaryKey(),
  /** How long after a refresh a full save may take before the nudge. */
  hours: integer("hours").notNull(),
  since: integer("since").notNull(),
});

/** One row per player and missed refresh: inserted once, by whichever process claims it first, before the push. */
export const nudges = sqliteTable(
  "nudges",
  {
    playerId: text("player_id").notNull(),
    refreshAt: integer("refresh_at").notNull(),
    /** "missed" (no full save in time) or "partial" (a save without harvest maps). */
    kind: text("kind").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.playerId, t.refreshAt] })],
);
