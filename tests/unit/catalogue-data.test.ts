import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parse } from "opentype.js";
import catalogJson from "../../src/maps/data/catalog.json" with { type: "json" };
import recordsJson from "../../src/maps/data/music-records.json" with { type: "json" };
import { findResource, siteGeometryEntry, weatherName } from "../../src/maps/catalog.ts";
import { fontFiles } from "../../src/maps/font-files.ts";
import { EDGE_INSET, siteProjection } from "../../src/maps/geometry.ts";
import { allMusicTitles, musicRecordTitle } from "../../src/maps/music-titles.ts";

const LANGS = ["ja", "en", "zh", "zh-Hant", "ko"] as const;
type Entry = { id: number; type?: string; name: Record<string, string>; composed?: string[]; translated?: string[]; tier?: string };
const catalogue = catalogJson as unknown as { sites: Entry[]; resources: Entry[]; phenomena: Entry[]; masterData: { region: string; commit: string; dataVersion: string }[] };
const entries = [...catalogue.sites.map((s) => ({ ...s, type: "site" })), ...catalogue.resources, ...catalogue.phenomena.map((p) => ({ ...p, type: "phenomena" }))];
const label = (e: Entry) => `${e.type}:${e.id}`;

describe("catalogue names", () => {
  test("every site, resource and weather has a name in all five map languages", () => {
    const gaps = entries.flatMap((e) => LANGS.filter((l) => !e.name[l]?.trim()).map((l) => `${label(e)}/${l}`));
    expect(gaps).toEqual([]);
    expect(entries.length).toBe(5 + 144 + 17);
  });

  test("a name not read from its server's master data says so, in one list only", () => {
    for (const e of entries) {
      const made = [...(e.composed ?? []), ...(e.translated ?? [])];
      expect({ entry: label(e), made: made.filter((l) => !(LANGS as readonly string[]).includes(l)) }).toEqual({ entry: label(e), made: [] });
      expect(new Set(made).size).toBe(made.length);
    }
    // The flowers and dews the CN, TW and KR servers have not released are composed; EN has none of the series.
    expect(findResource("mysekai_material", 67)).toMatchObject({ name: { ko: "이치카의 셀러브레이션 플라워", zh: "一歌的祝福之花" } });
    expect(entries.find((e) => label(e) === "mysekai_material:67")).toMatchObject({ composed: ["zh", "zh-Hant", "ko"], translated: ["en"] });
  });

  test("master data wins over the pattern: TW names dew 179 肅穆藍 where its memoria says 嚴謹藍", () => {
    const dew = entries.find((e) => label(e) === "material:179")!;
    expect(dew.name).toEqual({ ja: "祝祭のあまつゆ（ストリクトブルー）", en: "Festive Dew (Strong Blue)", zh: "庆典甘露（冷峻蓝）", "zh-Hant": "慶典露水（肅穆藍）", ko: "축제의 이슬(스트릭트블루)" });
    expect(dew.composed).toBeUndefined();
  });

  test("site 9 is the festival garden, named by each server (EN has not released it)", () => {
    expect(entries.find((e) => label(e) === "site:9")).toMatchObject({
      key: "festival_garden",
      name: { ja: "祝祭の庭園", en: "Festival Garden", zh: "庆典庭院", "zh-Hant": "慶典的庭園", ko: "축제의 정원" },
      translated: ["en"],
    });
  });

  test("weathers by their game names (CN calls 9 流星雨, KR 유성군); an unknown id has none", () => {
    expect((["zh-Hans", "ja", "en"] as const).map((l) => weatherName(9, l))).toEqual(["流星雨", "流星群", "Meteor Shower"]);
    expect(entries.find((e) => label(e) === "phenomena:9")!.name.ko).toBe("유성군");
    expect(weatherName(999, "zh-Hans")).toBeNull();
  });

  test("the header names each server's master-data version and commit", () => {
    expect(catalogue.masterData.map((m) => m.region)).toEqual(["jp", "en", "cn", "tw", "kr"]);
    for (const m of catalogue.masterData) expect(m).toMatchObject({ commit: expect.stringMatching(/^[0-9a-f]{40}$/), dataVersion: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    expect((recordsJson as { sources: { region: string }[] }).sources.map((s) => s.region)).toEqual(["jp", "en", "cn", "tw", "kr"]);
  });
});

describe("tiers as players know them (lunabot's rare_res_keys)", () => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const tiered = (tier: string) => catalogue.resources.filter((r) => r.tier === tier).map(label).sort();
  const keys = (type: string, ids: number[]) => ids.filter((id) => findResource(type, id)).map((id) => `${type}:${id}`);

  test("birthday flowers 67-92, festival dews and memory pieces 174-203 are top tier beside the classic five", () => {
    const want = [
      ...keys("mysekai_material", [5, 12, 20, 24, ...range(67, 92)]),
      ...keys("mysekai_fixture", [121]),
      ...keys("material", [17, 170, 173, ...range(174, 203)]),
    ].sort();
    expect(want.length).toBe(62); // 4 + 25 flowers + 1 + 3 + 29 dews and pieces: JP has no flower 80 nor dew 187 (Emu's)
    expect(tiered("super")).toEqual(want);
  });

  test("93 and 94 are rare as in lunabot, 95 and 96 (weather drops it does not list yet) with them", () => {
    expect(tiered("rare")).toEqual(keys("mysekai_material", [32, 33, 34, 61, 64, 65, 66, 93, 94, 95, 96]).sort());
  });
});

describe("site 9 geometry", () => {
  test("has a catalogue entry, and the harvest grid (-30..30) lands inside the map without clamping", () => {
    expect(siteGeometryEntry(9)).not.toBeNull();
    const projection = siteProjection(9, []);
    for (const x of [-30, 0, 30]) {
      for (const z of [-30, 0, 30]) {
        const p = projection.projectRaw(x, z);
        expect(p.x).toBeGreaterThanOrEqual(EDGE_INSET);
        expect(p.x).toBeLessThanOrEqual(projection.width - EDGE_INSET);
        expect(p.y).toBeGreaterThanOrEqual(EDGE_INSET);
        expect(p.y).toBeLessThanOrEqual(projection.height - EDGE_INSET);
      }
    }
    // x to the right, z upwards.
    expect(projection.projectRaw(10, 0).x).toBeGreaterThan(projection.projectRaw(0, 0).x);
    expect(projection.projectRaw(0, 10).y).toBeLessThan(projection.projectRaw(0, 0).y);
  });
});

describe("song titles from all five servers", () => {
  test("zh-Hant and ko read their own server's title, then jp (record 3: 將手 / 테오; 10006 has jp and en only)", () => {
    expect([musicRecordTitle(3, "zh-Hant"), musicRecordTitle(3, "ko")]).toEqual(["將手", "테오"]);
    expect([musicRecordTitle(10006, "zh-Hant"), musicRecordTitle(10006, "ko")]).toEqual(["一緒に歌おう！", "一緒に歌おう！"]);
  });

  test("a record only TW and KR have released keeps their title in every locale", () => {
    const titles = (recordsJson as unknown as { titles: Record<string, Record<string, string>> }).titles;
    const [id, entry] = Object.entries(titles).find(([, t]) => !t.jp && !t.en && !t.cn && t.tw && t.kr)!;
    for (const locale of ["ja", "en", "zh-Hans"] as const) expect(musicRecordTitle(Number(id), locale)).toBe(entry.tw!);
    expect(allMusicTitles()).toContain(entry.kr!);
  });
});

describe("font coverage", () => {
  const fonts = fontFiles().map((path) => {
    const bytes = readFileSync(path);
    return { path, font: parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { lowMemory: true }) };
  });

  // Glyph 0 is .notdef: what a character outside the subset is drawn with.
  test("every character of every name in every language and of every song title is in both bundled fonts", () => {
    const texts = [...entries.flatMap((e) => Object.values(e.name).map((n) => ({ of: label(e), n }))), ...allMusicTitles().map((n) => ({ of: "title", n }))];
    for (const { path, font } of fonts) {
      const missing = texts.flatMap(({ of, n }) => [...n].filter((ch) => ch.trim() && font.stringToGlyphs(ch)[0]!.index === 0).map((ch) => `${of}: ${ch}`));
      expect({ path, missing: [...new Set(missing)] }).toEqual({ path, missing: [] });
    }
  });
});
