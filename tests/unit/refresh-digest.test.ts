/** The digest an archive keeps for the player's history: its rare finds and new songs, bounded; none for a partial refresh. */
import { expect, test } from "bun:test";
import { describeSave } from "../../src/maps/index.ts";
import { DIGEST_ENTRIES, refreshDigest } from "../../src/maps/refresh-digest.ts";
import { makeSampleMySekaiSave, SAMPLE_MUSIC_RECORD_DROP_ID } from "../../src/samples/index.ts";

const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2026-11-26T06:00:00Z"), locale: "en" as const, showHarvested: false };
const outputs = () => describeSave(makeSampleMySekaiSave({ seed: 3, rareEverywhere: true }), ctx);

test("a refresh's rare finds (super first), its new songs and its sites' names", () => {
  const full = outputs();
  const digest = refreshDigest(full);
  expect(digest.partial).toBe(false);
  expect(digest.rare.map((find) => find.name)).toEqual(full.rareFinds.map((find) => find.resource.name));
  expect(digest.rare[0]!.tier).toBe("super");
  expect(digest.newSongs.map((song) => song.id)).toEqual([SAMPLE_MUSIC_RECORD_DROP_ID]);
  expect(digest.sites.map((site) => site.siteId)).toEqual([5, 6, 7, 8]);
  expect(digest.more).toBe(0);
});

test(`at most ${DIGEST_ENTRIES} entries, the rest counted; many rare finds never hide every new song; names clipped`, () => {
  const full = outputs();
  const find = full.rareFinds[0]!;
  const song = full.totals.find((t) => t.resource.musicRecord === "new")!;
  full.rareFinds = Array.from({ length: 30 }, (_, i) => ({ ...find, resource: { ...find.resource, name: `${"Long name ".repeat(10)}${i}` } }));
  full.totals = [...full.totals, ...Array.from({ length: 9 }, (_, i) => ({ ...song, resource: { ...song.resource, id: 9000 + i } }))];
  const digest = refreshDigest(full);
  expect(digest.rare.length + digest.newSongs.length).toBe(DIGEST_ENTRIES);
  expect(digest.newSongs.length).toBe(DIGEST_ENTRIES / 2);
  expect(digest.more).toBe(30 + 10 - DIGEST_ENTRIES);
  expect(Array.from(digest.rare[0]!.name).length).toBe(41);
  expect(JSON.stringify(digest).length).toBeLessThan(2_000);
});

test("a partial refresh (no harvest maps): marked, with no finds and no sites", () => {
  const digest = refreshDigest(describeSave({ ...makeSampleMySekaiSave({ seed: 3 }), hasHarvestMaps: false, sites: [] }, ctx));
  expect(digest).toEqual({ partial: true, rare: [], newSongs: [], more: 0, sites: [], unknown: [] });
});
