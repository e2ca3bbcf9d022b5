import { describe, expect, test } from "bun:test";
import { buildSiteSvg, describeSave, formatRareText, summaryJson, type OutputsContext } from "../../src/maps/index.ts";
import { MAP_LIMITS } from "../../src/maps/limits.ts";
import { musicRecordTitle } from "../../src/maps/music-titles.ts";
import { dropLabel } from "../../src/maps/resources.ts";
import { drop, save, site } from "../helpers/maps-fixtures.ts";

// Record 7: ビバハピ / Viva Happy / 快乐万岁; record 8 has a jp title only (Nostalogic); 999999 is not in the data.
const records = save([site(6, [drop("mysekai_music_record", 7, 0, 0), drop("mysekai_music_record", 8, 2, 2), drop("mysekai_music_record", 999_999, 4, 4, 2)])], [8]);
const ctx = (locale: OutputsContext["locale"]): OutputsContext => ({ playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale, showHarvested: false });

const expected = {
  ja: { seven: "レコード「ビバハピ」", eight: "レコード「Nostalogic」", unknown: "レコード #999999", title7: "ビバハピ" },
  en: { seven: "Music record “Viva Happy”", eight: "Music record “Nostalogic”", unknown: "Music record #999999", title7: "Viva Happy" },
  "zh-Hans": { seven: "唱片「快乐万岁」", eight: "唱片「Nostalogic」", unknown: "唱片 #999999", title7: "快乐万岁" },
} as const;

describe("a title that already carries brackets is not bracketed again", () => {
  // Record 102 is titled 「１」 (jp) / 「1」 (en, cn) in the game's data; record 710's brackets are inside its title.
  const bracketed = save([site(6, [drop("mysekai_music_record", 102, 0, 0), drop("mysekai_music_record", 710, 2, 2)])]);
  for (const [locale, names] of [
    ["zh-Hans", ["唱片「1」", "唱片「初音狂奏曲第01番「彗惺」」"]],
    ["ja", ["レコード「１」", "レコード「初音狂奏曲第01番「彗惺」」"]],
    ["en", ["Music record 「1」", "Music record “初音狂奏曲第01番「彗惺」”"]],
  ] as const) {
    test(locale, () => {
      const outputs = describeSave(bracketed, ctx(locale));
      const byId = new Map(outputs.totals.map((t) => [t.resource.id, t.resource.name]));
      expect([byId.get(102), byId.get(710)]).toEqual([...names]);
      expect(formatRareText(outputs)).toContain(`${names[0]} NEW ×1`);
    });
  }
});

describe("music records are named by song title in MAP_LOCALE's language", () => {
  for (const locale of ["ja", "en", "zh-Hans"] as const) {
    const want = expected[locale];

    test(`${locale}: the model names each record once, for every output`, () => {
      const outputs = describeSave(records, ctx(locale));
      const byId = new Map(outputs.totals.map((t) => [t.resource.id, t.resource]));
      expect([byId.get(7)!.name, byId.get(8)!.name, byId.get(999_999)!.name]).toEqual([want.seven, want.eight, want.unknown]);
      expect([byId.get(7)!.title, byId.get(999_999)!.title]).toEqual([want.title7, null]);
      // The site map's spots carry the same view.
      expect(outputs.sites[0]!.spots.flatMap((s) => s.items.map((i) => i.resource.name))).toContain(want.seven);
    });

    test(`${locale}: summary.json lists every record with id, title and new or owned`, () => {
      const summary = summaryJson(describeSave(records, ctx(locale)));
      expect(summary.musicRecords).toEqual([
        { id: 7, title: want.title7, status: "new", total: 1, sites: [6] },
        { id: 999_999, title: null, status: "new", total: 2, sites: [6] },
        { id: 8, title: "Nostalogic", status: "owned", total: 1, sites: [6] },
      ]);
      expect(summary.newMusicRecords).toEqual([7, 999_999]);
    });

    test(`${locale}: the rare text names new records by title, an unknown id by #id`, () => {
      const lines = formatRareText(describeSave(records, ctx(locale))).split("\n");
      expect(lines).toContain(`  ● ${want.seven} NEW ×1`);
      expect(lines).toContain(`  ● ${want.unknown} NEW ×2`);
      expect(lines.some((line) => line.includes("Nostalogic"))).toBe(false); // owned: not a find
    });
  }
});

describe("longer labels stay within the caps", () => {
  test("a site full of long titled records: labels capped per map, each label text clipped", () => {
    // Record 248 has the longest en title (49 characters), 10058 the longest jp one.
    expect(musicRecordTitle(248, "en")!.length).toBe(49);
    const drops = Array.from({ length: 150 }, (_, i) => drop("mysekai_music_record", i % 2 === 0 ? 248 : 10058, i % 15, Math.floor(i / 15), 1 + (i % 3)));
    for (const locale of ["ja", "en", "zh-Hans"] as const) {
      const outputs = describeSave(save([site(5, drops)]), ctx(locale));
      const svg = buildSiteSvg(outputs, 5);
      expect(svg.match(/<g class="label /g)?.length ?? 0).toBeLessThanOrEqual(MAP_LIMITS.labelsPerMap);
      for (const t of outputs.totals) expect(Array.from(dropLabel(t.resource, 99_999, locale)).length).toBeLessThanOrEqual(MAP_LIMITS.textChars);
    }
  });
});
