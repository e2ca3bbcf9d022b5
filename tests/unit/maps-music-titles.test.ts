import { describe, expect, test } from "bun:test";
import { musicRecordTitle } from "../../src/maps/music-titles.ts";

describe("musicRecordTitle", () => {
  test("names a record in each locale's region (record 3: テオ / Teo / 将手)", () => {
    expect(musicRecordTitle(3, "ja")).toBe("テオ");
    expect(musicRecordTitle(3, "en")).toBe("Teo");
    expect(musicRecordTitle(3, "zh-Hans")).toBe("将手");
  });

  test("a sound-track record has its own title (record 10006, not song 101)", () => {
    expect(musicRecordTitle(10006, "ja")).toBe("一緒に歌おう！");
    expect(musicRecordTitle(10006, "en")).toBe("Let's Sing!");
    expect(musicRecordTitle(10006, "zh-Hans")).toBe("一緒に歌おう！");
  });

  test("falls back to the jp title when the region lacks the id (record 769 is jp only)", () => {
    expect(musicRecordTitle(769, "en")).toBe("君に贈る未来");
    expect(musicRecordTitle(769, "zh-Hans")).toBe("君に贈る未来");
  });

  test("an id only one region knows keeps that region's title in every locale", () => {
    for (const locale of ["ja", "en", "zh-Hans"] as const) {
      expect(musicRecordTitle(526, locale)).toBe("NAKAKAPAGPABAGABAG"); // en only
      expect(musicRecordTitle(110001, locale)).toBe("Pick Me Up"); // cn only
    }
  });

  test("an unknown id has no title", () => {
    for (const id of [0, -1, 999_999, 1.5, Number.NaN]) expect(musicRecordTitle(id, "zh-Hans")).toBeNull();
  });
});
