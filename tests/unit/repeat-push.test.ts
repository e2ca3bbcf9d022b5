/**
 * One push per refresh starts from the drops' fingerprint, a pure function, checked here. The decision (repeat or
 * push, two deciders racing) runs on both stores in delivery-store.*.contract.test.ts, and two notify stages of one
 * refresh at once in notify-stage.*.contract.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { dropsFingerprint } from "../../src/save/index.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";

const refresh = () => save([site(5, [material(12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]);

describe("the drops' fingerprint", () => {
  test("ignores harvest status, drop order and site order", () => {
    const base = refresh();
    const revisited = save([
      site(6, [material(33, 2, 2, 1, true)]),
      site(5, [drop("mysekai_music_record", 7, 1, 1), material(1, 3, 4, 1, true), material(12, 0, 0, 2)]),
    ]);
    expect(dropsFingerprint({ ...revisited, now: Date.UTC(2025, 2, 1, 5) })).toBe(dropsFingerprint(base));
  });

  test("changes with the site, the resource (type and id), the position or the quantity", () => {
    const base = dropsFingerprint(refresh());
    const variants = [
      save([site(7, [material(12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(13, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [drop("mysekai_item", 12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(12, 0, 1, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(12, 0, 0, 3), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
    ];
    expect(new Set([base, ...variants.map(dropsFingerprint)]).size).toBe(1 + variants.length);
  });
});
