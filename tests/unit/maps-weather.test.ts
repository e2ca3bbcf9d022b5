/**
 * The refresh's weather on the site maps' title bar: the schedule row holding the save's time, named from the game's
 * master data in the map's language, with its window in the map's zone. The real CN save (2026-03-23 10:31 UTC)
 * lies in period 2 of its game day, phenomena 3 (night), 09:00–21:00 UTC.
 */
import { describe, expect, test } from "bun:test";
import { buildOverviewSvg, buildSiteSvg, describeSave, type OutputsContext } from "../../src/maps/index.ts";
import { UI_STRINGS } from "../../src/maps/i18n.ts";
import { refreshWeather, weatherName } from "../../src/maps/weather.ts";
import { toMySekaiSave } from "../../src/save/index.ts";
import { realSave } from "../helpers/real-save.ts";

const save = toMySekaiSave(realSave())!;
const ctx = (locale: OutputsContext["locale"], timeZone: string): OutputsContext => ({ playerId: "7000000000000000001", capturedAt: new Date("2026-03-23T10:31:37Z"), locale, showHarvested: false, timeZone });
const metaLine = (svg: string) => /<text x="\d+" y="104"[^>]*>([^<]*)<\/text>/.exec(svg)![1]!;

describe("the refresh's weather", () => {
  test("the row holding the save's time, in each map language and zone", () => {
    expect(refreshWeather(save.weather, save.now!, "zh-Hans")).toEqual({ phenomenaId: 3, name: "夜晚", startAt: "2026-03-23T09:00:00.000Z", endAt: "2026-03-23T21:00:00.000Z" });
    expect(metaLine(buildSiteSvg(describeSave(save, ctx("zh-Hans", "Asia/Shanghai")), 6, null))).toBe("玩家 7000000000000000001 · 2026-03-23 18:31 UTC+8 · 夜晚 17:00-05:00");
    expect(metaLine(buildSiteSvg(describeSave(save, ctx("ja", "Asia/Tokyo")), 6, null))).toEndWith(" · 夜 18:00-06:00");
    expect(metaLine(buildSiteSvg(describeSave(save, ctx("en", "UTC")), 6, null))).toEndWith(" · Night 09:00-21:00");
  });

  test("the overview's header shows the weather as the site maps do, and says when it is a birthday party refresh", () => {
    const outputs = describeSave(save, ctx("zh-Hans", "Asia/Shanghai"));
    const overview = buildOverviewSvg(outputs);
    expect(metaLine(overview)).toBe("玩家 7000000000000000001 · 2026-03-23 18:31 UTC+8 · 夜晚 17:00-05:00");
    expect(overview).toContain(`>${UI_STRINGS["zh-Hans"].overviewTitle}<`);
    const party = buildOverviewSvg({ ...outputs, dataType: "mysekai_birthday_party" });
    expect(party).toContain(`>${UI_STRINGS["zh-Hans"].partyRefreshTitle}<`);
    expect(party).not.toContain(UI_STRINGS["zh-Hans"].overviewTitle);
    // A party's overview is one panel wide (site 9 only): the title and the weather still show whole.
    const narrow = buildOverviewSvg({ ...describeSave(save, ctx("ja", "Asia/Tokyo")), dataType: "mysekai_birthday_party", sites: outputs.sites.slice(0, 1) });
    expect(narrow).toContain(`>${UI_STRINGS.ja.partyRefreshTitle}<`);
    expect(narrow).toContain(">2026-03-23 19:31 UTC+9 · 夜 18:00-06:00<");
  });

  test("names from the catalogue's master data (CN names 15 多云); an unknown id is #id", () => {
    expect([weatherName(9, "zh-Hans"), weatherName(9, "ja"), weatherName(9, "en")]).toEqual(["流星雨", "流星群", "Meteor Shower"]);
    expect(weatherName(15, "zh-Hans")).toBe("多云");
    expect(weatherName(99, "en")).toBe("#99");
  });

  test("no row holds the save's time, or no schedule: nothing is added", () => {
    const outputs = describeSave({ ...save, weather: [] }, ctx("zh-Hans", "Asia/Shanghai"));
    expect(outputs.weather).toBeNull();
    expect(metaLine(buildSiteSvg(outputs, 6, null))).toBe("玩家 7000000000000000001 · 2026-03-23 18:31 UTC+8");
    expect(refreshWeather(save.weather, Date.UTC(2026, 3, 1), "zh-Hans")).toBeNull();
  });
});
