import { describe, expect, test } from "bun:test";
import { encode } from "@msgpack/msgpack";
import { runEvaluate } from "../../src/pipeline/tasks.ts";
import { MSGPACK_LIMITS, SAVE_LIMITS } from "../../src/save/limits.ts";
import { encodeSample, makeSampleSave, randomKeyPair } from "../../src/samples/index.ts";
import { encryptAesCbc, INVALID_REASONS, openSave, type OpenedSave } from "../../src/save/index.ts";

const PAIR = randomKeyPair();
const KEYS = [{ label: "test", key: PAIR.key, iv: PAIR.iv }];

/**
 * Opens encrypted `plain` and checks that it took little time: every refusal is immediate. The bound has room for a
 * busy 2-core machine (a 10,000-drop site took 0.73 s there with the other core loaded); a refusal that grew with its
 * input's square would take far longer.
 */
function open(plain: Uint8Array, maxMs = 1_500): OpenedSave {
  const body = encryptAesCbc(plain, PAIR.key, PAIR.iv);
  const started = performance.now();
  const opened = openSave(body, KEYS);
  expect(performance.now() - started).toBeLessThan(maxMs);
  return opened;
}

function saveWith(sites: unknown[], extra: Record<string, unknown> = {}): Uint8Array {
  return encode({ updatedResources: { userMysekaiHarvestMaps: sites, ...extra } });
}

const drop = (resourceType = "mysekai_material", x = 0) => ({
  resourceType,
  resourceId: 1,
  positionX: x,
  positionZ: 0,
  mysekaiSiteHarvestResourceDropStatus: "before_drop",
});
const site = (siteId: number, drops: unknown[] = [drop()], fixtures: unknown[] = []) => ({
  mysekaiSiteId: siteId,
  userMysekaiSiteHarvestResourceDrops: drops,
  userMysekaiSiteHarvestFixtures: fixtures,
});
const fixture = { mysekaiSiteHarvestFixtureId: 1001, positionX: 1, positionZ: 1, userMysekaiSiteHarvestFixtureStatus: "spawned" };

function expectTooLarge(opened: OpenedSave, reason: RegExp) {
  expect(opened.kind).toBe("too_large");
  if (opened.kind === "too_large") expect(opened.reason).toMatch(reason);
}

describe("MessagePack structure limits", () => {
  test("deep nesting is refused by the scan, before any value is built", () => {
    const depth = 100_000;
    const plain = new Uint8Array(depth + 1).fill(0x91);
    plain[depth] = 0x00;
    expectTooLarge(open(plain), new RegExp(`nested deeper than ${MSGPACK_LIMITS.depth} levels`));
  });

  test("nesting at the depth limit still decodes; one level more is refused", () => {
    const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
    const atLimit = open(saveWith([site(5)], { deep: nested(MSGPACK_LIMITS.depth - 2) }));
    expect(atLimit.kind).toBe("save");
    expectTooLarge(open(saveWith([site(5)], { deep: nested(MSGPACK_LIMITS.depth - 1) })), /nested deeper/);
  });

  test("declared lengths the bytes cannot hold read as not MessagePack, at once", () => {
    const headers = [
      [0xdd, 0xff, 0xff, 0xff, 0xff], // array32 of 2^32-1 items
      [0xdf, 0xff, 0xff, 0xff, 0xff], // map32 of 2^32-1 entries
      [0xdb, 0xff, 0xff, 0xff, 0xff], // str32 of 2^32-1 bytes
      [0xc6, 0xff, 0xff, 0xff, 0xff], // bin32
      [0xc9, 0xff, 0xff, 0xff, 0xff, 0x01], // ext32
      [0x81, 0xa1, 0x61, 0xdd, 0x00, 0x10, 0x00, 0x00], // {a: array of 1M items} in 8 bytes
    ];
    for (const header of headers) {
      expect(open(new Uint8Array([...header, 0, 0, 0]))).toEqual({ kind: "invalid", reason: INVALID_REASONS.notMsgpack });
    }
  });

  test("long arrays, big maps, long strings and too many values are refused with their reason", () => {
    expectTooLarge(open(saveWith([site(5)], { rows: new Array(MSGPACK_LIMITS.arrayLength + 1).fill(0) })), /an array of 100001 items \(limit 100000\)/);
    const map = Object.fromEntries(Array.from({ length: MSGPACK_LIMITS.mapLength + 1 }, (_, i) => [`k${i}`, 0]));
    expectTooLarge(open(saveWith([site(5)], { map })), /a map of 10001 entries/);
    expectTooLarge(open(saveWith([site(5)], { text: "x".repeat(200_000) })), /a string of 200000 bytes \(limit 65536\)/);
    expectTooLarge(open(saveWith([site(5)], { blob: new Uint8Array(MSGPACK_LIMITS.binBytes + 1) })), /a binary value of 65537 bytes/);
    const tables = Array.from({ length: 3 }, () => new Array(90_000).fill(0));
    expectTooLarge(open(saveWith([site(5)], { tables })), /more than 250000 values/);
  });

  test("a 200,000-character resourceType is refused", () => {
    expectTooLarge(open(saveWith([site(5, [drop("x".repeat(200_000))])])), /a string of 200000 bytes/);
  });
});

describe("save caps", () => {
  test("400 sites", () => {
    expectTooLarge(open(saveWith(Array.from({ length: 400 }, (_, i) => site(i)))), /400 harvest maps \(sites\) \(limit 8\)/);
  });

  test("10,000 drops on one site", () => {
    const drops = Array.from({ length: 10_000 }, (_, i) => drop("mysekai_material", i));
    expectTooLarge(open(saveWith([site(5, drops)])), new RegExp(`10000 drops on site 5 \\(limit ${SAVE_LIMITS.dropsPerSite}\\)`));
  });

  test("harvest points, strings, music records and weather rows", () => {
    const fixtures = new Array(SAVE_LIMITS.fixturesPerSite + 1).fill(fixture);
    expectTooLarge(open(saveWith([site(5, [], fixtures)])), new RegExp(`${SAVE_LIMITS.fixturesPerSite + 1} harvest points on site 5`));
    expectTooLarge(open(saveWith([site(5, [drop("y".repeat(65))])])), /a drop's resourceType is 65 characters \(limit 64\)/);
    const longStatus = { ...drop(), mysekaiSiteHarvestResourceDropStatus: "s".repeat(65) };
    expectTooLarge(open(saveWith([site(5, [longStatus])])), /a drop's status is 65 characters/);
    const records = Array.from({ length: SAVE_LIMITS.musicRecords + 1 }, (_, i) => ({ mysekaiMusicRecordId: i }));
    expectTooLarge(open(saveWith([site(5)], { userMysekaiMusicRecords: records })), /5001 owned music records/);
    const weather = new Array(SAVE_LIMITS.weatherRows + 1).fill({ mysekaiPhenomenaId: 1, startAt: 1, endAt: 2 });
    expectTooLarge(open(encode({ updatedResources: { userMysekaiHarvestMaps: [site(5)] }, mysekaiPhenomenaSchedules: weather })), /257 weather rows/);
  });

  test("a save exactly at every cap opens", () => {
    const drops = Array.from({ length: SAVE_LIMITS.dropsPerSite }, (_, i) => drop("z".repeat(SAVE_LIMITS.stringChars), i));
    const fixtures = new Array(SAVE_LIMITS.fixturesPerSite).fill(fixture);
    const sites = Array.from({ length: SAVE_LIMITS.sites }, (_, i) => site(i + 1, drops, fixtures));
    const opened = open(saveWith(sites), 2_000);
    expect(opened.kind).toBe("save");
    if (opened.kind === "save") expect(opened.save.sites.map((s) => s.drops.length)).toEqual(new Array(SAVE_LIMITS.sites).fill(SAVE_LIMITS.dropsPerSite));
  });

  test("a realistic save is far below every cap", () => {
    expect(open(encodeSample(makeSampleSave({ seed: 4 }))).kind).toBe("save");
  });

  test("a site id seen twice keeps its first harvest map only", () => {
    const opened = open(saveWith([site(5, [drop()]), site(5, [drop(), drop()])]));
    expect(opened.kind === "save" && opened.save.sites.map((s) => s.drops.length)).toEqual([1]);
  });
});

describe("wrong types never throw", () => {
  test("each gives a clear reason or a skipped record", () => {
    expect(open(encode({ updatedResources: { userMysekaiHarvestMaps: "maps" } }))).toEqual({ kind: "invalid", reason: INVALID_REASONS.notSave });
    expect(open(encode([1, 2, 3]))).toEqual({ kind: "invalid", reason: INVALID_REASONS.notSave });
    expect(open(encode("just a string"))).toEqual({ kind: "invalid", reason: INVALID_REASONS.notSave });
    const odd = open(saveWith([site(5, { not: "a list" } as never), { mysekaiSiteId: "x" }, 42, site(6, [drop(7 as never), { resourceType: ["a"] }, drop()])]));
    expect(odd.kind === "save" && odd.save.sites.map((s) => [s.siteId, s.drops.length])).toEqual([[5, 0], [6, 1]]);
    // A site none of whose drops reads would be drawn as "nothing rare": the save is unreadable instead.
    const none = open(saveWith([site(5), site(6, [drop(7 as never), { resourceType: ["a"] }])]));
    expect(none).toEqual({ kind: "unreadable", reason: "harvest records cannot be read: none of the 2 drops of site 6 could be read" });
    expect(open(new Uint8Array([0xc1]))).toEqual({ kind: "invalid", reason: INVALID_REASONS.notMsgpack });
  });

  test("a wrong key never reads as an over-limit save", () => {
    const other = randomKeyPair();
    for (let i = 0; i < 200; i++) {
      const body = encryptAesCbc(crypto.getRandomValues(new Uint8Array(64 + i)), other.key, other.iv);
      expect(openSave(body, KEYS).kind).toBe("invalid");
    }
  });
});

describe("report candidates past the caps", () => {
  const overCap = encryptAesCbc(saveWith(Array.from({ length: 400 }, (_, i) => site(i))), PAIR.key, PAIR.iv);
  const normal = encryptAesCbc(encodeSample(makeSampleSave({ seed: 5 })), PAIR.key, PAIR.iv);
  const garbage = new Uint8Array(64);

  test("are still saves: stored, so that they fail with their reason instead of vanishing", () => {
    expect(runEvaluate({ bodies: [garbage, overCap], keys: KEYS })).toEqual({ save: 1, partial: null, decryptedAny: true });
  });

  test("never shadow a real save in the same report", () => {
    expect(runEvaluate({ bodies: [overCap, normal], keys: KEYS }).save).toBe(1);
  });
});
