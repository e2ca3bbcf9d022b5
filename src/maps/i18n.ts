/** UI strings of the maps and the rare text, and capture-time formatting. */
import type { FixtureKind, Locale } from "./catalog.ts";

export interface UiStrings {
  rareTitle: string;
  /** The rare text's and the push's title for a birthday party's delivery. */
  birthdayPartyTitle: string;
  noRare: string;
  musicRecord: string;
  /** Around a record's song title: `唱片「title」`. */
  titleOpen: string;
  titleClose: string;
  /** Before the save's own time in the rare text (the push ends with it). */
  dataTime: string;
  newBadge: string;
  owned: string;
  legend: string;
  player: string;
  drops: string;
  harvested: string;
  overviewTitle: string;
  noDrops: string;
  noHarvestMaps: string;
  listSeparator: string;
  /** The legend's harvest-point shapes: its heading, then one word per kind. */
  harvestPoints: string;
  harvestPointKinds: Record<FixtureKind, string>;
}

export const UI_STRINGS: Record<Locale, UiStrings> = {
  zh: {
    rareTitle: "MySekai 稀有资源",
    birthdayPartyTitle: "MySekai 生日派对",
    noRare: "今日没有稀有资源",
    musicRecord: "唱片",
    titleOpen: "「",
    titleClose: "」",
    dataTime: "存档时间",
    newBadge: "NEW",
    owned: "已拥有",
    legend: "本地点资源",
    player: "玩家",
    drops: "掉落",
    harvested: "已采集",
    overviewTitle: "MySekai 采集总览",
    noDrops: "没有掉落",
    noHarvestMaps: "存档中没有采集地图",
    listSeparator: ", ",
    harvestPoints: "采集点",
    harvestPointKinds: { tree: "树木", rock: "石块", plant: "花草", other: "其余" },
  },
  ja: {
    rareTitle: "MySekai レア素材",
    birthdayPartyTitle: "MySekai バースデーパーティー",
    noRare: "今日はレア素材がありません",
    musicRecord: "レコード",
    titleOpen: "「",
    titleClose: "」",
    dataTime: "データ時刻",
    newBadge: "NEW",
    owned: "所持済み",
    legend: "このエリアの素材",
    player: "プレイヤー",
    drops: "ドロップ",
    harvested: "採集済み",
    overviewTitle: "MySekai 採集マップ一覧",
    noDrops: "ドロップなし",
    noHarvestMaps: "セーブに採集マップがありません",
    listSeparator: "、",
    harvestPoints: "採集ポイント",
    harvestPointKinds: { tree: "木", rock: "石", plant: "草花", other: "そのほか" },
  },
  en: {
    rareTitle: "MySekai rare resources",
    birthdayPartyTitle: "MySekai birthday party",
    noRare: "No rare resources today",
    musicRecord: "Music record",
    titleOpen: " “",
    titleClose: "”",
    dataTime: "Data time",
    newBadge: "NEW",
    owned: "owned",
    legend: "Resources on this site",
    player: "Player",
    drops: "drops",
    harvested: "harvested",
    overviewTitle: "MySekai harvest overview",
    noDrops: "No drops",
    noHarvestMaps: "No harvest maps in this save",
    listSeparator: ", ",
    harvestPoints: "Harvest points",
    harvestPointKinds: { tree: "tree", rock: "rock", plant: "plant", other: "other" },
  },
};

/** Symbols drawn by the SVG builders and the rare text; the font subset must cover them. */
export const UI_SYMBOLS = "×·—★◆●▲■…#:+-()[]/%";

interface ZoneFormats {
  time: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
}

/** Building a DateTimeFormat costs ~0.3 ms (a map draws the time four times); zones are a handful of settings. */
const zoneFormats = new Map<string, ZoneFormats>();
const MAX_CACHED_ZONES = 16;

function formatsFor(timeZone: string): ZoneFormats {
  const known = zoneFormats.get(timeZone);
  if (known) return known;
  const formats = {
    time: new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    offset: new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }),
  };
  if (zoneFormats.size >= MAX_CACHED_ZONES) zoneFormats.clear();
  zoneFormats.set(timeZone, formats);
  return formats;
}

function offsetLabel(date: Date, timeZone: string): string {
  const part = formatsFor(timeZone)
    .offset.formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  const raw = part?.value ?? "GMT";
  if (raw === "GMT") return "UTC";
  // "GMT+08:00" → "UTC+8", "GMT+05:30" → "UTC+5:30"
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(raw);
  if (!match) return raw.replace("GMT", "UTC");
  if (match[2] === "00" && match[3] === "00") return "UTC";
  const hours = String(Number(match[2]));
  return `UTC${match[1]}${hours}${match[3] === "00" ? "" : `:${match[3]}`}`;
}

/**
 * "2025-03-01 08:30 UTC+8": the capture time in the given IANA zone (default UTC).
 * An unknown zone throws a RangeError from Intl; callers validate the zone at config time.
 */
export function formatCaptureTime(date: Date, timeZone = "UTC"): string {
  const get = timeParts(date, timeZone);
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")} ${offsetLabel(date, timeZone)}`;
}

/** "18:00": the clock time in the given IANA zone (the weather's window on the title bar). */
export function formatClock(date: Date, timeZone = "UTC"): string {
  const get = timeParts(date, timeZone);
  return `${get("hour")}:${get("minute")}`;
}

/** The date's parts (year, month, day, hour, minute) in the zone, by name. */
function timeParts(date: Date, timeZone: string): (type: string) => string {
  const parts = formatsFor(timeZone).time.formatToParts(date);
  return (type) => parts.find((p) => p.type === type)?.value ?? "00";
}

/** Every UI character, for the font subset script. */
export function allUiText(): string {
  return Object.values(UI_STRINGS)
    .flatMap((s) => Object.values(s).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v))))
    .join("") + UI_SYMBOLS;
}
