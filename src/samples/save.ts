/**
 * Realistic synthetic MySekai saves for the demo, tests and benchmarks. Only catalogue ids are real;
 * the player id, positions and every count are invented. Deterministic for a seed.
 */
import { encode } from "@msgpack/msgpack";
import { encryptAesCbc, toMySekaiSave, type MySekaiSave } from "../save/index.ts";
import { makeFillerTables, makePhenomenaSchedules } from "./filler.ts";
import { makeHarvestMap } from "./harvest.ts";
import { seededRandom } from "./random.ts";

export interface SampleOptions {
  seed?: number;
  /** Server time in ms; defaults to a fixed instant so equal seeds give equal saves. */
  now?: number;
  sites?: number[];
  /** Put super-rare and rare drops on every site (default: a few sites only). */
  rareEverywhere?: boolean;
  ownedMusicRecordIds?: number[];
}

/** A 19-digit player id, kept as bigint so it is encoded as a 64-bit integer. */
export const SAMPLE_USER_ID = 7488393821744390161n;
export const SAMPLE_PLAYER_ID = String(SAMPLE_USER_ID);
export const SAMPLE_DEFAULT_NOW = Date.UTC(2025, 5, 14, 3, 25, 0);
export const SAMPLE_DEFAULT_SITES: readonly number[] = [5, 6, 7, 8];
const DEFAULT_OWNED_RECORDS: readonly number[] = [1, 2, 3, 17, 45, 88, 104, 129, 210, 301];

/** The raw (pre-MessagePack) response object. */
export function makeSampleSave(opts: SampleOptions = {}): Record<string, unknown> {
  const random = seededRandom(opts.seed ?? 1);
  const now = opts.now ?? SAMPLE_DEFAULT_NOW;
  const sites = opts.sites ?? SAMPLE_DEFAULT_SITES;
  const rareEverywhere = opts.rareEverywhere ?? false;
  const owned = opts.ownedMusicRecordIds ?? DEFAULT_OWNED_RECORDS;
  return {
    updatedResources: {
      now,
      userMysekaiHarvestMaps: sites.map((siteId) => makeHarvestMap(siteId, random, { now, rareEverywhere })),
      userMysekaiMusicRecords: owned.map((mysekaiMusicRecordId) => ({
        mysekaiMusicRecordId,
        obtainedAt: now - random.int(1, 300) * 86_400_000,
      })),
      ...makeFillerTables(random, now, SAMPLE_USER_ID),
    },
    isEnabled: true,
    isRefreshed: true,
    isMysekaiGateRefreshed: false,
    isExpireMysekaiSiteHousingPresetExtendSlot: false,
    mysekaiHousingCompetitionPendingNotifyReviewCount: 0,
    mysekaiPhenomenaSchedules: makePhenomenaSchedules(random, now),
  };
}

const INT32_MIN = -0x80000000;
const UINT32_LIMIT = 0x100000000;

/**
 * The game's encoder writes 64-bit integers for timestamps; @msgpack/msgpack with useBigInt64
 * would write such numbers as float64, so integers outside 32 bits are turned into bigint first.
 */
function widenLargeIntegers(value: unknown): unknown {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && (value >= UINT32_LIMIT || value < INT32_MIN) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map(widenLargeIntegers);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = widenLargeIntegers(item);
    return out;
  }
  return value;
}

/** The typed save the maps draw, parsed by the codec from the same raw object. */
export function makeSampleMySekaiSave(opts?: SampleOptions): MySekaiSave {
  const save = toMySekaiSave(makeSampleSave(opts));
  if (save === null) throw new Error("the sample generator made something that is not a save");
  return save;
}

/** MessagePack bytes as the game would send them (64-bit integers for ids and timestamps). */
export function encodeSample(obj: unknown): Uint8Array {
  return encode(widenLargeIntegers(obj), { useBigInt64: true });
}

export function makeEncryptedSample(keyPair: { key: Uint8Array; iv: Uint8Array }, opts?: SampleOptions): Uint8Array {
  return encryptAesCbc(encodeSample(makeSampleSave(opts)), keyPair.key, keyPair.iv);
}

let nextSeed = 1;

/** A different encrypted sample on every call in this process (seeds 1, 2, 3, ...), so none is deduplicated away. */
export function makeFreshEncryptedSample(keyPair: { key: Uint8Array; iv: Uint8Array }, opts: SampleOptions = {}): Uint8Array {
  return makeEncryptedSample(keyPair, { seed: nextSeed++, ...opts });
}
