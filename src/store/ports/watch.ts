/**
 * Watch rules and their matches as the CLI, the player's page and the notify stage use them: SQLite's store
 * and a hub's, written once (src/db/owner/watch.ts), held to tests/contract/watch-store.contract.test.ts.
 */
import type { WatchMatch } from "../model/watch.ts";

/** The player id of rules every player watches. */
export const EVERY_PLAYER = "*";

export interface WatchRule {
  playerId: string;
  /** `type:id`. */
  resource: string;
  createdAt: number;
}

export interface WatchStore {
  /** Adds rules (existing ones stay); "too_many" when the player would hold more than MAX_RULES, and nothing is added. */
  add(playerId: string, resources: string[], now?: number): Promise<number | "too_many">;
  /** Removes rules; how many there were. */
  remove(playerId: string, resources: string[]): Promise<number>;
  /** One player's rules (`*` included as its own player), or every rule; by player, then resource. */
  list(playerId?: string): Promise<WatchRule[]>;
  /** What a player watches: their rules and everyone's. */
  watchedBy(playerId: string): Promise<Set<string>>;
  /** The player's page form: of the `offered` resources, exactly `ticked` are watched afterwards; others untouched. */
  setTicked(playerId: string, offered: string[], ticked: string[], now?: number): Promise<void>;
  /** A save's matches (again: replaced); none recorded for an empty list. */
  recordMatches(saveId: number, playerId: string, matches: WatchMatch[], now?: number): Promise<void>;
  /** The recorded matches of these saves. */
  matchesOf(saveIds: number[]): Promise<Map<number, WatchMatch[]>>;
}
