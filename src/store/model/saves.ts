/** A save as both stores hold it (the `saves` table), and what enters the store as one. */
import type { DataType } from "../../capture/data-types.ts";
import type { Region } from "../../capture/regions.ts";
import type { SaveOutputs } from "../../maps/save-outputs.ts";

/**
 * What a save's arrival said of it, decided once where it arrives (src/ingest/save-origin.ts: the upload route, a
 * report's candidate in evaluate) and stored as it is, a column each: both stores' inserts and the status page's
 * read take the columns from SAVE_ORIGIN_COLUMNS.
 */
export interface SaveOrigin {
  /** The region of the capture URL's game host, if it named a known one. */
  region: Region | null;
  /** What the capture URL says the answer is (src/capture/data-types.ts); the save when it names none. */
  dataType: DataType;
}

/** Each origin field's column in `saves`. */
export const SAVE_ORIGIN_COLUMNS = { region: "region", dataType: "data_type" } as const satisfies Record<keyof SaveOrigin, string>;

/** The origin of a save whose arrival said nothing of it (no capture URL). */
export const NO_ORIGIN: SaveOrigin = { region: null, dataType: "mysekai" };

export interface SaveRow extends SaveOrigin {
  id: number;
  sha256: string;
  playerId: string;
  source: "upload" | "report";
  /** The encrypted save; null once the retention rule cleared it (the archive keeps save.bin). */
  encrypted: Uint8Array | null;
  size: number;
  receivedAt: number;
  /** The save's outputs model, committed by the generate stage; null until then. */
  outputs: SaveOutputs | null;
  dropsFingerprint: string | null;
  /** The player's last pushed save, when notify found this one has the same drops and did not push it. */
  repeatOf: number | null;
  /** A refresh without harvest maps: never the data API's latest, never pushed. */
  partial: boolean;
}

export interface NewSave {
  encrypted: Uint8Array;
  playerId: string;
  source: "upload" | "report";
  receivedAt: number;
  /** sha256 of `encrypted` when the caller has it already. */
  sha256?: string;
  /** The bytes cannot be a save under the configured keys (src/save/plausible.ts): its job runs last. */
  implausible?: boolean;
  /** NO_ORIGIN when not given. */
  origin?: SaveOrigin;
}

export interface StoredSave {
  saveId: number;
  created: boolean;
  /** The save was held as `unknown` and took this arrival's player id: its job runs again from generate. */
  adopted: boolean;
}
