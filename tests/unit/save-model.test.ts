import { describe, expect, test } from "bun:test";
import { decodeMsgpack, resourceKey, toMySekaiSave } from "../../src/save/index.ts";
import { encodeSample } from "../../src/samples/index.ts";

const HOUR = 60 * 60 * 1000;

const fixture = (overrides: Record<string, unknown> = {}) => ({
  mysekaiSiteHarvestFixtureId: 1001,
  positionX: 3,
  positionZ: -4,
  hp: 40,
  userMysekaiSiteHarvestFixtureStatus: "spawned",
  ...overrides,
});

const drop = (overrides: Record<string, unknown> = {}) => ({
  resourceType: "mysekai_material",
  resourceId: 12,
  positionX: 3,
  positionZ: -4,
  hp: 10,
  seq: 1,
  mysekaiSiteHarvestResourceDropStatus: "before_drop",
  quantity: 2,
  ...overrides,
});

const saveWith = (maps: unknown[], extra: Record<string, unknown> = {}) => ({
  updatedResources: { now: 1_749_871_500_000, userMysekaiHarvestMaps: maps, ...extra },
});

describe("toMySekaiSave", () => {
  test("not a save: anything without updatedResources.userMysekaiHarvestMaps as an array", () => {
    for (const decoded of [null, 5, "x", [], {}, { updatedResources: [] }, { updatedResources: { userMysekaiHarvestMaps: {} } }]) {
      expect(toMySekaiSave(decoded)).toBeNull();
    }
  });

  test("reads sites, fixtures and drops with their harvested state", () => {
    const save = toMySekaiSave(
      saveWith([
        {
          mysekaiSiteId: 5,
          userMysekaiSiteHarvestFixtures: [fixture(), fixture({ userMysekaiSiteHarvestFixtureStatus: "harvested", hp: 0 })],
          userMysekaiSiteHarvestResourceDrops: [drop(), drop({ mysekaiSiteHarvestResourceDropStatus: "after_drop", seq: 2 })],
        },
      ]),
    );
    expect(save?.hasHarvestMaps).toBe(true);
    expect(save?.now).toBe(1_749_871_500_000);
    const site = save?.sites[0];
    expect(site?.siteId).toBe(5);
    expect(site?.fixtures).toEqual([
      { fixtureId: 1001, positionX: 3, positionZ: -4, hp: 40, harvested: false, spawnGroup: null },
      { fixtureId: 1001, positionX: 3, positionZ: -4, hp: 0, harvested: true, spawnGroup: null },
    ]);
    expect(site?.drops[0]).toEqual({
      resourceType: "mysekai_material",
      resourceId: 12,
      positionX: 3,
      positionZ: -4,
      quantity: 2,
      seq: 1,
      status: "before_drop",
      harvested: false,
      spawnGroup: null,
    });
    expect(site?.drops[1]?.harvested).toBe(true);
    expect(site?.drops[1]?.status).toBe("after_drop");
  });

  test("an empty harvest map array is a partial refresh", () => {
    const save = toMySekaiSave(saveWith([]));
    expect(save).not.toBeNull();
    expect(save?.hasHarvestMaps).toBe(false);
    expect(save?.sites).toEqual([]);
  });

  test("numeric strings and floats are coerced by the documented rule", () => {
    const save = toMySekaiSave(
      saveWith(
        [
          {
            mysekaiSiteId: "6",
            userMysekaiSiteHarvestFixtures: [fixture({ mysekaiSiteHarvestFixtureId: "2001", positionX: "-2.5", positionZ: 7.25 })],
            userMysekaiSiteHarvestResourceDrops: [
              drop({ resourceId: "33", positionX: " 4 ", quantity: "3", seq: 7.0 }),
              drop({ resourceId: 33.5 }), // ids must be integers: skipped
              drop({ resourceId: "33abc" }), // not a number: skipped
            ],
          },
        ],
        { now: "1749871500000" },
      ),
    );
    const site = save?.sites[0];
    expect(site?.siteId).toBe(6);
    expect(site?.fixtures[0]).toMatchObject({ fixtureId: 2001, positionX: -2.5, positionZ: 7.25 });
    expect(site?.drops).toHaveLength(1);
    expect(site?.drops[0]).toMatchObject({ resourceId: 33, positionX: 4, quantity: 3, seq: 7 });
    expect(save?.now).toBe(1_749_871_500_000);
  });

  test("malformed records are skipped, never thrown", () => {
    const save = toMySekaiSave(
      saveWith([
        "not a map",
        { userMysekaiSiteHarvestFixtures: [fixture()] }, // no site id
        {
          mysekaiSiteId: 7,
          userMysekaiSiteHarvestFixtures: [
            fixture(),
            null,
            fixture({ positionX: Number.NaN }),
            fixture({ positionZ: Number.POSITIVE_INFINITY }),
            fixture({ mysekaiSiteHarvestFixtureId: undefined }),
            fixture({ userMysekaiSiteHarvestFixtureStatus: 3 }),
            fixture({ hp: "lots" }),
          ],
          userMysekaiSiteHarvestResourceDrops: [
            drop(),
            drop({ resourceType: "" }),
            drop({ resourceType: 5 }),
            drop({ resourceId: null }),
            drop({ quantity: 0 }),
            drop({ mysekaiSiteHarvestResourceDropStatus: undefined }),
            drop({ positionZ: [1] }),
            drop({ quantity: undefined, seq: undefined }), // optional: defaults
          ],
        },
        { mysekaiSiteId: 8, userMysekaiSiteHarvestFixtures: "oops" }, // missing arrays count as empty
      ]),
    );
    expect(save?.sites.map((site) => site.siteId)).toEqual([7, 8]);
    expect(save?.sites[0]?.fixtures).toHaveLength(1);
    expect(save?.sites[0]?.drops).toHaveLength(2);
    expect(save?.sites[0]?.drops[1]).toMatchObject({ quantity: 1, seq: 0 });
    expect(save?.sites[1]).toEqual({ siteId: 8, fixtures: [], drops: [] });
  });

  test("(type, id) stay together: mysekai_item 5 and mysekai_material 5 are different resources", () => {
    const save = toMySekaiSave(
      saveWith([
        {
          mysekaiSiteId: 5,
          userMysekaiSiteHarvestResourceDrops: [
            drop({ resourceType: "mysekai_item", resourceId: 5, quantity: 1 }),
            drop({ resourceType: "mysekai_material", resourceId: 5, quantity: 4 }),
          ],
        },
      ]),
    );
    const totals = new Map<string, number>();
    for (const item of save?.sites[0]?.drops ?? []) {
      const key = resourceKey(item.resourceType, item.resourceId);
      totals.set(key, (totals.get(key) ?? 0) + item.quantity);
    }
    expect(Object.fromEntries(totals)).toEqual({ "mysekai_item:5": 1, "mysekai_material:5": 4 });
  });

  test("owned music records, deduplicated, in save order", () => {
    const records = [{ mysekaiMusicRecordId: 9 }, { mysekaiMusicRecordId: "3" }, { mysekaiMusicRecordId: 9 }, { other: 1 }];
    expect(toMySekaiSave(saveWith([], { userMysekaiMusicRecords: records }))?.ownedMusicRecordIds).toEqual([9, 3]);
  });

  test("weather: the game's period rows and explicit bounds", () => {
    const day = Date.UTC(2025, 5, 14);
    const save = toMySekaiSave({
      ...saveWith([]),
      mysekaiPhenomenaSchedules: [
        { mysekaiRefreshTimePeriodId: 2, scheduleDate: day, mysekaiPhenomenaId: 6 },
        { mysekaiRefreshTimePeriodId: 1, scheduleDate: day, mysekaiPhenomenaId: 1 },
        { mysekaiPhenomenaId: 9, scheduleStartAt: day + 24 * HOUR, scheduleEndAt: day + 36 * HOUR },
        { mysekaiPhenomenaId: 4 }, // no time: skipped
        { mysekaiRefreshTimePeriodId: 1, scheduleDate: day }, // no phenomenon: skipped
      ],
    });
    expect(save?.weather).toEqual([
      { phenomenaId: 1, startAt: day, endAt: day + 12 * HOUR },
      { phenomenaId: 6, startAt: day + 12 * HOUR, endAt: day + 24 * HOUR },
      { phenomenaId: 9, startAt: day + 24 * HOUR, endAt: day + 36 * HOUR },
    ]);
  });

  test("now falls back to the top-level value, else null", () => {
    expect(toMySekaiSave({ now: 42, updatedResources: { userMysekaiHarvestMaps: [] } })?.now).toBe(42);
    expect(toMySekaiSave({ updatedResources: { userMysekaiHarvestMaps: [] } })?.now).toBeNull();
  });

  test("64-bit values survive the MessagePack round trip exactly", () => {
    const decoded = decodeMsgpack(encodeSample(saveWith([], { userMysekaiGamedata: { userId: 7488393821744390161n } })));
    const updated = (decoded as { updatedResources: { userMysekaiGamedata: { userId: unknown }; now: unknown } }).updatedResources;
    expect(updated.userMysekaiGamedata.userId).toBe("7488393821744390161");
    expect(updated.now).toBe(1_749_871_500_000);
    expect(toMySekaiSave(decoded)?.now).toBe(1_749_871_500_000);
  });
});
