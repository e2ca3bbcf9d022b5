/** UI strings of the maps and the rare text, and capture-time formatting. */
import { formatZonedTime, zonedParts } from "../i18n/zones.ts";
import { pickName, type CatalogParty, type FixtureKind, type Locale } from "./catalog.ts";

export interface UiStrings {
  rareTitle: string;
  /** The rare text's and the push's title for a birthday party's delivery that refreshed the harvest maps. */
  partyRefreshTitle: string;
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
  /** A party-limited spawn's party: {character} and {year} filled in. */
  party: string;
  /** A party-limited spawn whose spawn group no party in the catalogue knows. */
  partyUnknown: string;
  /** An id the catalogue does not know: {type} (a word of resourceTypes) and {id} filled in. */
  unknownResource: string;
  /** The drops' resource types in words; `other` for a type none of these names. */
  resourceTypes: Record<"mysekai_material" | "material" | "mysekai_item" | "mysekai_fixture" | "mysekai_music_record" | "mysekai_blueprint" | "mysekai_site_harvest_fixture" | "other", string>;
  /** Heading of the labels listed under a map for want of a free place on it. */
  unplacedLabels: string;
  /** A month-of-spawns image's subtitle (src/spawns): {days}, {finds}, {spots} filled in; `one` for one spot. */
  spawnSubtitle: { one: string; other: string };
  /** A spawn image's legend: the words beside the two tiers' colours. */
  spawnTiers: { super: string; rare: string };
  /** Said on a spawn image that draws only its busiest spots: {shown}, {spots} filled in. */
  spawnCapped: string;
}

export const UI_STRINGS: Record<Locale, UiStrings> = {
  "zh-Hans": {
    rareTitle: "MySekai 稀有资源",
    partyRefreshTitle: "MySekai 生日派对刷新",
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
    harvestPointKinds: { tree: "树木", rock: "石块", plant: "花草", other: "其余", party: "生日派对" },
    party: "{character} {year} 生日派对",
    partyUnknown: "生日派对限定",
    unknownResource: "未知{type} #{id}",
    resourceTypes: { mysekai_material: "材料", material: "素材", mysekai_item: "道具", mysekai_fixture: "家具", mysekai_music_record: "唱片", mysekai_blueprint: "设计图", mysekai_site_harvest_fixture: "采集点", other: "资源" },
    unplacedLabels: "图中放不下",
    spawnSubtitle: { one: "最近 {days} 天稀有资源：{finds} 次，{spots} 个位置", other: "最近 {days} 天稀有资源：{finds} 次，{spots} 个位置" },
    spawnTiers: { super: "超稀有", rare: "稀有" },
    spawnCapped: "只画出发现最多的 {shown} 个位置（共 {spots} 个）",
  },
  "zh-Hant": {
    rareTitle: "MySekai 稀有資源",
    noRare: "今日沒有稀有資源",
    musicRecord: "唱片",
    titleOpen: "「",
    titleClose: "」",
    dataTime: "存檔時間",
    newBadge: "NEW",
    owned: "已擁有",
    legend: "本地點資源",
    player: "玩家",
    drops: "掉落",
    harvested: "已採集",
    overviewTitle: "MySekai 採集總覽",
    noDrops: "沒有掉落",
    noHarvestMaps: "存檔中沒有採集地圖",
    listSeparator: "、",
    harvestPoints: "採集點",
    harvestPointKinds: { tree: "樹木", rock: "石塊", plant: "花草", other: "其餘", party: "生日派對" },
    party: "{character} {year} 生日派對",
    partyUnknown: "生日派對限定",
    unknownResource: "未知{type} #{id}",
    resourceTypes: { mysekai_material: "材料", material: "素材", mysekai_item: "道具", mysekai_fixture: "家具", mysekai_music_record: "唱片", mysekai_blueprint: "設計圖", mysekai_site_harvest_fixture: "採集點", other: "資源" },
    unplacedLabels: "圖中放不下",
    spawnSubtitle: { one: "最近 {days} 天稀有資源：{finds} 次，{spots} 個位置", other: "最近 {days} 天稀有資源：{finds} 次，{spots} 個位置" },
    spawnTiers: { super: "超稀有", rare: "稀有" },
    spawnCapped: "只畫出發現最多的 {shown} 個位置（共 {spots} 個）",
    partyRefreshTitle: "MySekai 生日派對刷新",
  },
  ja: {
    rareTitle: "MySekai レア素材",
    partyRefreshTitle: "MySekai バースデーパーティーで更新",
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
    harvestPointKinds: { tree: "木", rock: "石", plant: "草花", other: "そのほか", party: "パーティー" },
    party: "{character} {year} バースデーパーティー",
    partyUnknown: "バースデーパーティー限定",
    unknownResource: "未知の{type} #{id}",
    resourceTypes: { mysekai_material: "マイセカイ素材", material: "素材", mysekai_item: "アイテム", mysekai_fixture: "家具", mysekai_music_record: "レコード", mysekai_blueprint: "設計図", mysekai_site_harvest_fixture: "採集ポイント", other: "リソース" },
    unplacedLabels: "地図に書ききれないもの",
    spawnSubtitle: { one: "直近 {days} 日のレア資源：{spots} か所で {finds} 回", other: "直近 {days} 日のレア資源：{spots} か所で {finds} 回" },
    spawnTiers: { super: "超レア", rare: "レア" },
    spawnCapped: "発見の多い {shown} か所のみ表示（全 {spots} か所）",
  },
  ko: {
    rareTitle: "MySekai 희귀 자원",
    noRare: "오늘은 희귀 자원이 없습니다",
    musicRecord: "레코드",
    titleOpen: "「",
    titleClose: "」",
    dataTime: "데이터 시각",
    newBadge: "NEW",
    owned: "보유",
    legend: "이 구역의 자원",
    player: "플레이어",
    drops: "드롭",
    harvested: "채집 완료",
    overviewTitle: "MySekai 채집 개요",
    noDrops: "드롭 없음",
    noHarvestMaps: "세이브에 채집 맵이 없습니다",
    listSeparator: ", ",
    harvestPoints: "채집 포인트",
    harvestPointKinds: { tree: "나무", rock: "바위", plant: "풀꽃", other: "기타", party: "생일 파티" },
    party: "{character} {year} 생일 파티",
    partyUnknown: "생일 파티 한정",
    unknownResource: "알 수 없는 {type} #{id}",
    resourceTypes: { mysekai_material: "마이세카이 재료", material: "재료", mysekai_item: "물품", mysekai_fixture: "가구", mysekai_music_record: "레코드", mysekai_blueprint: "설계도", mysekai_site_harvest_fixture: "채집 포인트", other: "자원" },
    unplacedLabels: "지도에 표시하지 못한 항목",
    spawnSubtitle: { one: "최근 {days}일 희귀 자원: {spots}곳에서 {finds}회", other: "최근 {days}일 희귀 자원: {spots}곳에서 {finds}회" },
    spawnTiers: { super: "초희귀", rare: "희귀" },
    spawnCapped: "발견이 많은 {shown}곳만 표시 (전체 {spots}곳)",
    partyRefreshTitle: "MySekai 생일 파티 갱신",
  },
  en: {
    rareTitle: "MySekai rare resources",
    partyRefreshTitle: "MySekai birthday party refresh",
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
    harvestPointKinds: { tree: "tree", rock: "rock", plant: "plant", other: "other", party: "party" },
    party: "{character} {year} party",
    partyUnknown: "Birthday party spawn",
    unknownResource: "Unknown {type} #{id}",
    resourceTypes: { mysekai_material: "MySekai material", material: "material", mysekai_item: "item", mysekai_fixture: "fixture", mysekai_music_record: "music record", mysekai_blueprint: "blueprint", mysekai_site_harvest_fixture: "harvest point", other: "resource" },
    unplacedLabels: "Not labelled on the map",
    spawnSubtitle: { one: "Rare finds, last {days} days: {finds} on {spots} spot", other: "Rare finds, last {days} days: {finds} on {spots} spots" },
    spawnTiers: { super: "super-rare", rare: "rare" },
    spawnCapped: "Only the {shown} spots with the most finds are drawn (of {spots})",
  },
};

/** "遥 2026 生日派对": a party-limited spawn's party in the locale; a group no catalogue party has, generically. */
export function partyLabel(party: CatalogParty | null, locale: Locale): string {
  const ui = UI_STRINGS[locale];
  const character = party ? pickName(party.character, locale) : null;
  if (!party || !character) return ui.partyUnknown;
  return ui.party.replace("{character}", character).replace("{year}", String(party.year));
}

/** "未知材料 #150": an id the catalogue does not know, by its type's word and its id, in the locale's language. */
export function unknownResourceName(type: string, id: number, locale: Locale): string {
  const ui = UI_STRINGS[locale];
  const word = ui.resourceTypes[type as keyof UiStrings["resourceTypes"]] ?? ui.resourceTypes.other;
  return ui.unknownResource.replace("{type}", word).replace("{id}", String(id));
}

/** Symbols drawn by the SVG builders and the rare text; the font subset must cover them. */
export const UI_SYMBOLS = "×·—★◆●▲■…#:+-()[]/%";

/**
 * "2025-03-01 08:30 UTC+8": the capture time in the given IANA zone (default UTC).
 * An unknown zone throws a RangeError from Intl; callers validate the zone at config time.
 */
export function formatCaptureTime(date: Date, timeZone = "UTC"): string {
  return formatZonedTime(date, timeZone);
}

/** "18:00": the clock time in the given IANA zone (the weather's window on the title bar). */
export function formatClock(date: Date, timeZone = "UTC"): string {
  return zonedParts(date, timeZone).time;
}

/** Every UI character, for the font subset script. */
export function allUiText(): string {
  return Object.values(UI_STRINGS)
    .flatMap((s) => Object.values(s).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v))))
    .join("") + UI_SYMBOLS;
}
