/** The five languages: settings, Accept-Language, the maps' name fallbacks and the region's defaults. */
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { mapLocaleFor, timeZoneFor } from "../../src/config/maps.ts";
import { LOCALES, localeOf, negotiateLocale } from "../../src/i18n/locales.ts";
import { MESSAGES } from "../../src/i18n/messages/index.ts";
import { formatZonedTime } from "../../src/i18n/zones.ts";
import { pickName } from "../../src/maps/catalog.ts";
import { UI_STRINGS } from "../../src/maps/i18n.ts";
import { SAVE_OUTPUTS_VERSION, storedOutputs, type SaveOutputs } from "../../src/maps/save-outputs.ts";

describe("settings", () => {
  test("MAP_LOCALE and PAGE_LOCALE take the five (any case, zh-CN/zh-TW too); zh stays simplified; unset follows the region", () => {
    expect(loadConfig({ MAP_LOCALE: "zh" }).maps.locale).toBe("zh-Hans");
    expect(loadConfig({ MAP_LOCALE: "zh-hant" }).maps.locale).toBe("zh-Hant");
    expect(loadConfig({ MAP_LOCALE: "zh-TW" }).maps.locale).toBe("zh-Hant");
    expect(loadConfig({ MAP_LOCALE: "KO" }).maps.locale).toBe("ko");
    expect(loadConfig({ PAGE_LOCALE: "zh-Hans" }).pages.locale).toBe("zh-Hans");
    expect(loadConfig({}).pages.locale).toBeNull();
    expect(loadConfig({}).maps.locale).toBeNull();
    expect(loadConfig({}).maps.timeZone).toBeNull();
  });

  test("a language that is none of the five, or a zone Intl does not know, stops the start naming the variable", () => {
    expect(() => loadConfig({ MAP_LOCALE: "fr" })).toThrow(ConfigError);
    expect(() => loadConfig({ PAGE_LOCALE: "klingon" })).toThrow(/PAGE_LOCALE must be one of zh-Hans, zh-Hant, ja, ko, en/);
    expect(() => loadConfig({ PAGE_LOCALE: "en-US-x-very-long-tag" })).toThrow(/PAGE_LOCALE/);
    expect(() => loadConfig({ MAP_TIMEZONE: "Mars/Olympus" })).toThrow(/MAP_TIMEZONE must be an IANA time zone/);
  });

  test("the region picks language and zone: CN zh-Hans Shanghai, TW zh-Hant Taipei, KR ko Seoul, JP ja Tokyo, EN en Los Angeles; no host: CN's", () => {
    const unset = { locale: null, timeZone: null };
    const regions = ["cn", "tw", "kr", "jp", "en", null] as const;
    expect(regions.map((region) => mapLocaleFor(unset, region))).toEqual(["zh-Hans", "zh-Hant", "ko", "ja", "en", "zh-Hans"]);
    expect(regions.map((region) => timeZoneFor(unset, region))).toEqual(["Asia/Shanghai", "Asia/Taipei", "Asia/Seoul", "Asia/Tokyo", "America/Los_Angeles", "Asia/Shanghai"]);
    const fixed = { locale: "ja" as const, timeZone: "Europe/Berlin" };
    expect(regions.map((region) => [mapLocaleFor(fixed, region), timeZoneFor(fixed, region)])).toEqual(regions.map(() => ["ja", "Europe/Berlin"]));
  });
});

describe("Accept-Language", () => {
  test("tags map to the five: script and region tell traditional from simplified", () => {
    expect(["zh", "zh-CN", "zh-Hans-CN", "zh-SG", "zh-TW", "zh-HK", "zh-MO", "zh-Hant", "ja-JP", "ko-KR", "en-GB", "fr", ""].map(localeOf)).toEqual([
      "zh-Hans", "zh-Hans", "zh-Hans", "zh-Hans", "zh-Hant", "zh-Hant", "zh-Hant", "zh-Hant", "ja", "ko", "en", null, null,
    ]);
  });

  test("the best q wins, order breaks ties, q=0 and unknown languages never; a header of thousands reads its first 32", () => {
    expect(negotiateLocale("fr, ko;q=0.4, ja;q=0.9")).toBe("ja");
    expect(negotiateLocale("de, zh-TW, ja")).toBe("zh-Hant");
    expect(negotiateLocale("ja;q=0, en;q=0.1")).toBe("en");
    expect(negotiateLocale("fr, de")).toBeNull();
    expect(negotiateLocale(undefined)).toBeNull();
    expect(negotiateLocale(`${"fr, ".repeat(5000)}ko`)).toBeNull();
    expect(negotiateLocale("ko;q=abc, ja;q=0.5")).toBe("ja");
  });
});

describe("maps in five languages", () => {
  test("a name missing in its language falls back: zh-Hant → zh → ja → en, ko → ja → en", () => {
    const name = { zh: "钻石", ja: "ダイヤモンド", en: "Diamond" };
    expect(pickName(name, "zh-Hant")).toBe("钻石");
    expect(pickName({ ...name, "zh-Hant": "鑽石" }, "zh-Hant")).toBe("鑽石");
    expect(pickName(name, "ko")).toBe("ダイヤモンド");
    expect(pickName({ ...name, ko: "다이아몬드" }, "ko")).toBe("다이아몬드");
    expect(pickName({ en: "Diamond" }, "ko")).toBe("Diamond");
    expect(pickName({ ja: "ダイヤモンド" }, "zh-Hans")).toBe("ダイヤモンド");
  });

  test("every language has the maps' strings and the pages' messages; a stored model of simplified Chinese (zh) reads zh-Hans", () => {
    for (const locale of LOCALES) {
      expect(UI_STRINGS[locale].rareTitle).toStartWith("MySekai ");
      expect(typeof MESSAGES[locale].latestMaps).toBe("string");
    }
    const old = { version: SAVE_OUTPUTS_VERSION, locale: "zh" } as unknown as SaveOutputs;
    expect(storedOutputs(old)?.locale).toBe("zh-Hans");
  });

  test("times carry their zone's offset at that moment, summer time included", () => {
    expect(formatZonedTime(new Date("2026-03-23T23:42:00Z"), "Asia/Shanghai")).toBe("2026-03-24 07:42 UTC+8");
    expect(formatZonedTime(new Date("2026-01-15T12:00:00Z"), "America/Los_Angeles")).toBe("2026-01-15 04:00 UTC-8");
    expect(formatZonedTime(new Date("2026-07-15T12:00:00Z"), "America/Los_Angeles")).toBe("2026-07-15 05:00 UTC-7");
    expect(formatZonedTime(new Date("2026-07-15T12:00:00Z"), "Asia/Kolkata")).toBe("2026-07-15 17:30 UTC+5:30");
    expect(formatZonedTime(new Date("2026-07-15T12:00:00Z"), "UTC")).toBe("2026-07-15 12:00 UTC");
  });
});
