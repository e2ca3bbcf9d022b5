/**
 * A birthday party's delivery read and answered: its `isRefreshed` and `userBirthdayParties` read from the body,
 * one without harvest maps kept as a delivery (never as a save), and the data API's save with a refresh's harvest
 * maps in place, sliced from the bytes (64-bit numbers as written, every other key and its order kept).
 */
import { describe, expect, test } from "bun:test";
import { withHarvestMaps } from "../../src/http/api/harvest-maps.ts";
import { describeSave, isHarvestState } from "../../src/maps/save-outputs.ts";
import { toMySekaiSave } from "../../src/save/parse.ts";
import { birthdayDelivery, OBTAINED, PARTY_ID } from "../helpers/birthday-party.ts";

describe("a delivery's body", () => {
  test("isRefreshed and userBirthdayParties are read; a refresh with maps is a harvest state, any other delivery a record", () => {
    const refresh = toMySekaiSave(birthdayDelivery({ refreshed: true }), { delivery: true })!;
    expect([refresh.isRefreshed, refresh.hasHarvestMaps, refresh.sites.length]).toEqual([true, true, 4]);
    expect(refresh.birthdayParties).toEqual([{ partyId: PARTY_ID, obtained: OBTAINED, points: 302300 }]);
    expect(isHarvestState(refresh, "mysekai_birthday_party")).toBe(true);
    const record = toMySekaiSave(birthdayDelivery({ refreshed: false }), { delivery: true })!;
    expect(isHarvestState(record, "mysekai_birthday_party")).toBe(false);
    // A record draws nothing, whatever maps it carries.
    const outputs = describeSave(record, { playerId: "1", capturedAt: new Date(0), locale: "en", showHarvested: false, dataType: "mysekai_birthday_party" });
    expect([outputs.partial, outputs.refreshed, outputs.sites, outputs.parties]).toEqual([true, false, [], record.birthdayParties]);
    const unsaid = birthdayDelivery();
    delete unsaid.isRefreshed;
    expect(isHarvestState(toMySekaiSave(unsaid, { delivery: true })!, "mysekai_birthday_party")).toBe(false);
  });

  test("a delivery without harvest maps is kept as a delivery; the same body is no save", () => {
    const body = birthdayDelivery({ refreshed: true, maps: false });
    expect(toMySekaiSave(structuredClone(body), { delivery: true })).toMatchObject({ hasHarvestMaps: false, isRefreshed: true, sites: [] });
    expect(toMySekaiSave(structuredClone(body))).toBeNull();
    expect(toMySekaiSave({ isRefreshed: false }, { delivery: true })).toMatchObject({ hasHarvestMaps: false, isRefreshed: false });
    expect(toMySekaiSave({ other: 1 }, { delivery: true })).toBeNull();
  });
});

describe("the save with a refresh's harvest maps in place", () => {
  const save = Buffer.from('{"updatedResources":{"now":1,"userMysekaiHarvestMaps":[{"a":1}],"userMysekaiMaterials":[{"id":9007199254740993}]},"userId":7000000000000000001}');
  const delivery = Buffer.from('{"isRefreshed":true,"updatedResources":{"userMysekaiHarvestMaps":[{"b":12345678901234567890}],"userBirthdayParties":[]}}');

  test("the maps replaced where they were; every other key and number as written", () => {
    expect(withHarvestMaps(save, delivery)!.toString()).toBe(
      '{"updatedResources":{"now":1,"userMysekaiHarvestMaps":[{"b":12345678901234567890}],"userMysekaiMaterials":[{"id":9007199254740993}]},"userId":7000000000000000001}',
    );
  });

  test("added when the save had none; nothing when the delivery holds none", () => {
    expect(withHarvestMaps(Buffer.from('{"userId":1}'), delivery)!.toString()).toBe('{"userId":1,"updatedResources":{"userMysekaiHarvestMaps":[{"b":12345678901234567890}]}}');
    expect(withHarvestMaps(save, Buffer.from('{"isRefreshed":true,"updatedResources":{}}'))).toBeNull();
  });
});
