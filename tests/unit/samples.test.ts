import { describe, expect, test } from "bun:test";
import { decode } from "@msgpack/msgpack";
import { EDGE_INSET, siteProjection } from "../../src/maps/geometry.ts";
import { type MySekaiSave, type ResourceKey, openSave, parseKeyPairs, resourceKey } from "../../src/save/index.ts";
import {
  SAMPLE_MUSIC_RECORD_DROP_ID,
  SAMPLE_USER_ID,
  encodeSample,
  makeEncryptedSample,
  makeSampleMySekaiSave,
  makeSampleSave,
  randomKeyPair,
  seededRandom,
} from "../../src/samples/index.ts";

const SUPER: ResourceKey[] = [
  "mysekai_material:5",
  "mysekai_material:12",
  "mysekai_material:20",
  "mysekai_material:24",
  "mysekai_fixture:121",
];
const RARE = [32, 33, 34, 61, 64, 65, 66].map((id) => resourceKey("mysekai_material", id));

function openSample(opts: Parameters<typeof makeSampleSave>[0] = {}): { save: MySekaiSave; size: number } {
  const pair = randomKeyPair();
  const keys = parseKeyPairs({ AES_KEY: pair.keyText, AES_IV: pair.ivText });
  const encrypted = makeEncryptedSample(pair, opts);
  const opened = openSave(encrypted, keys);
  if ("reason" in opened) throw new Error(`sample did not open: ${opened.reason}`);
  return { save: opened.save, size: encrypted.length };
}

const keysOnSite = (save: MySekaiSave, siteId: number) =>
  new Set(save.sites.find((site) => site.siteId === siteId)?.drops.map((d) => resourceKey(d.resourceType, d.resourceId)));

describe("synthetic saves", () => {
  const { save, size } = openSample({ seed: 11 });

  test("is about the size of a real save and opens as a save", () => {
    expect(size).toBeGreaterThan(150 * 1024);
    expect(size).toBeLessThan(300 * 1024);
    expect(save.hasHarvestMaps).toBe(true);
    expect(save.weather.length).toBe(4);
    expect(save.now).not.toBeNull();
  });

  test("four sites with plausible fixtures and drops", () => {
    expect(save.sites.map((site) => site.siteId)).toEqual([5, 6, 7, 8]);
    for (const site of save.sites) {
      expect(site.fixtures.length).toBeGreaterThanOrEqual(25);
      expect(site.fixtures.length).toBeLessThanOrEqual(40);
      expect(site.drops.length).toBeGreaterThanOrEqual(60);
      expect(site.drops.length).toBeLessThanOrEqual(120);
      for (const point of [...site.fixtures, ...site.drops]) {
        expect(Math.abs(point.positionX)).toBeLessThanOrEqual(20);
        expect(Math.abs(point.positionZ)).toBeLessThanOrEqual(20);
      }
    }
    const all = save.sites.flatMap((site) => site.drops);
    expect(all.some((d) => d.harvested)).toBe(true);
    expect(all.some((d) => !d.harvested)).toBe(true);
    expect(save.sites.flatMap((site) => site.fixtures).some((f) => f.harvested)).toBe(true);
  });

  test("every point lands inside its site's drawn map (none is pulled onto the edge)", () => {
    for (const site of save.sites) {
      const map = siteProjection(site.siteId, site.fixtures);
      for (const point of site.fixtures) {
        const { x, y } = map.projectRaw(point.positionX, point.positionZ);
        expect(x).toBeGreaterThanOrEqual(EDGE_INSET);
        expect(x).toBeLessThanOrEqual(map.width - EDGE_INSET);
        expect(y).toBeGreaterThanOrEqual(EDGE_INSET);
        expect(y).toBeLessThanOrEqual(map.height - EDGE_INSET);
      }
    }
  });

  test("the typed sample is the save the service opens from the encrypted one", () => {
    expect(makeSampleMySekaiSave({ seed: 11 })).toEqual(save);
  });

  test("carries rare finds, the twin (type, id) pair and a music record drop", () => {
    const everywhere = new Set(save.sites.flatMap((site) => [...keysOnSite(save, site.siteId)]));
    expect(SUPER.some((key) => everywhere.has(key))).toBe(true);
    expect(RARE.filter((key) => everywhere.has(key)).length).toBeGreaterThanOrEqual(3);
    expect(keysOnSite(save, 5).has("mysekai_item:5")).toBe(true);
    expect(keysOnSite(save, 5).has("mysekai_material:5")).toBe(true);
    expect(keysOnSite(save, 7).has(`mysekai_music_record:${SAMPLE_MUSIC_RECORD_DROP_ID}`)).toBe(true);
    expect(save.ownedMusicRecordIds).not.toContain(SAMPLE_MUSIC_RECORD_DROP_ID);
  });

  test("rareEverywhere puts a super-rare and a rare drop on every site", () => {
    const rich = openSample({ seed: 2, rareEverywhere: true }).save;
    for (const site of rich.sites) {
      const keys = keysOnSite(rich, site.siteId);
      expect(SUPER.some((key) => keys.has(key))).toBe(true);
      expect(RARE.some((key) => keys.has(key))).toBe(true);
    }
  });

  test("options choose sites, time and owned records", () => {
    const small = openSample({ seed: 3, sites: [6, 9], now: 1_700_000_000_000, ownedMusicRecordIds: [4, 8] }).save;
    expect(small.sites.map((site) => site.siteId)).toEqual([6, 9]);
    expect(small.now).toBe(1_700_000_000_000);
    expect(small.ownedMusicRecordIds).toEqual([4, 8]);
  });

  test("is deterministic for a seed and differs between seeds", () => {
    expect(encodeSample(makeSampleSave({ seed: 7 }))).toEqual(encodeSample(makeSampleSave({ seed: 7 })));
    expect(encodeSample(makeSampleSave({ seed: 7 }))).not.toEqual(encodeSample(makeSampleSave({ seed: 8 })));
  });

  test("the player id and timestamps are written as 64-bit integers", () => {
    const bytes = encodeSample(makeSampleSave({ seed: 1 }));
    const uint64 = new Uint8Array(9);
    uint64[0] = 0xcf;
    new DataView(uint64.buffer).setBigUint64(1, SAMPLE_USER_ID);
    expect(Buffer.from(bytes).includes(Buffer.from(uint64))).toBe(true);
    // Read raw (no normalising): a timestamp written as int64 comes back as bigint, a float64 as number.
    const raw = decode(bytes, { useBigInt64: true }) as { updatedResources: { now: unknown } };
    expect(raw.updatedResources.now).toBe(1_749_871_500_000n);
  });
});

describe("randomKeyPair", () => {
  for (const bits of [128, 192, 256] as const) {
    test(`${bits}-bit env texts parse back to the same bytes`, () => {
      const pair = randomKeyPair(bits);
      expect(pair.key.length).toBe(bits / 8);
      expect(pair.keyText.startsWith("hex:")).toBe(true);
      const [parsed] = parseKeyPairs({ AES_KEY: pair.keyText, AES_IV: pair.ivText });
      expect(parsed?.key).toEqual(pair.key);
      expect(parsed?.iv).toEqual(pair.iv);
    });
  }
});

describe("seededRandom", () => {
  test("same seed, same sequence; ints stay in range", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 200 }, () => a.int(-20, 20));
    expect(values).toEqual(Array.from({ length: 200 }, () => b.int(-20, 20)));
    expect(Math.min(...values)).toBe(-20);
    expect(Math.max(...values)).toBe(20);
  });
});
