/**
 * Every cap on what a decrypted save may hold. The game's key is public, so a save is attacker-controlled:
 * these keep the decode, the parse and the maps bounded. What real saves hold (the CN save of
 * tests/fixtures/real and its published sibling): ~180–220 KB, 4 sites of 106–256 drops on 30–98 harvest
 * points, nesting 9–10 deep, ~22,500 values, arrays of at most a few hundred rows, strings under 60 characters.
 * Every density cap keeps at least 4× that: a real save refused by a cap is a save lost.
 */
import { asArray } from "./coerce.ts";

/** MessagePack structure, checked by a scan of the bytes before any value is built. */
export const MSGPACK_LIMITS = {
  /** Containers inside containers; real saves nest 9–10 deep. */
  depth: 48,
  /** Values of any kind in the whole tree; real saves hold ~22,500 (a 1 MiB body of tiny values would hold a million). */
  values: 250_000,
  /** Items of one array; the largest real tables have a few hundred rows (449 in the fixture). */
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
  /**
   * Harvest maps (sites) per save; the game has 4 (a new site is a game update, not a denser save). Each costs a
   * PNG: 8 keeps a save at the caps within a few seconds of drawing.
   */
  sites: 8,
  /** Drops per site; real: up to 256 (on up to 98 spots). Each is a mark on the site map and its overview panel. */
  dropsPerSite: 1_024,
  /** Harvest points per site; real: up to 98, each drop lying on one. */
  fixturesPerSite: 512,
  /** Characters of a resource type or a status; real: under 40. */
  stringChars: 64,
  /** Owned music records; the game has a few hundred. */
  musicRecords: 5_000,
  /** Weather schedule rows; real: a handful. */
  weatherRows: 256,
  /** `userBirthdayParties` rows: a row a party a player ever joined may stay in the list (JP had 25 parties by 2026-08). */
  birthdayParties: 512,
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
