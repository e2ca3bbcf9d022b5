/**
 * Every cap on what a decrypted save may hold. The game's key is public, so a save is attacker-controlled:
 * these keep the decode, the parse and the maps bounded. Real saves (~200 KB, 4 sites of 60–120 drops and
 * 25–40 harvest points, depth 7, ~13,000 values, arrays of at most a few thousand rows, strings under 100
 * characters) sit far below every cap.
 */
import { asArray } from "./coerce.ts";

/** MessagePack structure, checked by a scan of the bytes before any value is built. */
export const MSGPACK_LIMITS = {
  /** Containers inside containers; real saves nest 7 deep. */
  depth: 32,
  /** Values of any kind in the whole tree; real saves hold ~13,000 (a 1 MiB body of tiny values would hold a million). */
  values: 250_000,
  /** Items of one array; the largest real tables have a few thousand rows. */
  arrayLength: 100_000,
  /** Entries of one map; real maps are records of a few dozen fields. */
  mapLength: 10_000,
  /** UTF-8 bytes of one string; real strings are ids and enum names. */
  strBytes: 65_536,
  /** Bytes of one binary or extension value; saves carry none we know of. */
  binBytes: 65_536,
} as const;

/** The parts of a save the maps draw. */
export const SAVE_LIMITS = {
  /** Harvest maps (sites) per save; the game has 4. Each costs a PNG: 8 keeps a save at the caps near 1 s of drawing. */
  sites: 8,
  /** Drops per site; real: 60–120. Each is a marker on the site map and its overview panel. */
  dropsPerSite: 500,
  /** Harvest points per site; real: 25–40. */
  fixturesPerSite: 500,
  /** Characters of a resource type or a status; real: under 40. */
  stringChars: 64,
  /** Owned music records; the game has a few hundred. */
  musicRecords: 5_000,
  /** Weather schedule rows; real: a handful. */
  weatherRows: 256,
} as const;

/** A save past one of the caps: it will never fit, so it is failed at once with this reason, never retried. */
export class SaveLimitError extends Error {
  override readonly name = "SaveLimitError";
  constructor(detail: string) {
    super(`over the save limits: ${detail}`);
  }
}

/** The array, or [] when absent or not an array; SaveLimitError when it has more than `limit` rows. */
export function cappedRows(value: unknown, limit: number, what: string): unknown[] {
  const rows = asArray(value) ?? [];
  if (rows.length > limit) throw new SaveLimitError(`${rows.length} ${what} (limit ${limit})`);
  return rows;
}
