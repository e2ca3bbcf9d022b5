/**
 * Missed-refresh nudges as the CLI and the nudge loop use them: both stores' (src/db/owner/nudges.ts, written
 * once). A nudge is claimed by inserting its row: on a hub the database decides which process pushes.
 */
import type { Region } from "../../capture/regions.ts";

export interface NudgePlayer {
  playerId: string;
  hours: number;
  since: number;
}

export type NudgeKind = "missed" | "partial";

export interface NudgeStore {
  /** hours null: off. */
  setNudge(playerId: string, hours: number | null, now?: number): Promise<void>;
  nudgePlayers(): Promise<NudgePlayer[]>;
  nudgePlayer(playerId: string): Promise<NudgePlayer | null>;
  /** true for the one caller that inserted (player, refreshAt); false when it was claimed before. */
  claim(playerId: string, refreshAt: number, kind: NudgeKind, now?: number): Promise<boolean>;
  /** Whether a save other than a partial refresh or a failed one arrived at or after `since` (one still being drawn counts). */
  fullSaveSince(playerId: string, since: number): Promise<boolean>;
  /** The region of the player's newest save that names one. */
  latestRegion(playerId: string): Promise<Region | null>;
}
