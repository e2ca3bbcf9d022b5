/**
 * What scripts/master-data.ts adds to the game's master data: the repositories it names, the community
 * tier lists, the site geometry, and the few names no server's master data has yet (each one marked in
 * the catalogue as made here, and dropped as soon as that server's master data carries the id).
 */
import type { NameLang } from "./read.ts";

export const REPOS = {
  jp: "Sekai-World/sekai-master-db-diff",
  en: "Sekai-World/sekai-master-db-en-diff",
  cn: "Sekai-World/sekai-master-db-cn-diff",
  tw: "Sekai-World/sekai-master-db-tc-diff",
  kr: "Sekai-World/sekai-master-db-kr-diff",
} as const;

/** `material` (not mysekai_material) ids that drop at harvest points; lunabot's rare_res_keys name them. */
export const HARVEST_MATERIAL_IDS = [17, 170, 173, ...Array.from({ length: 30 }, (_, i) => 174 + i)];

/** lunabot's tiers, in its own key syntax (`type_id` or `type_min~max`). Music records are left out on purpose:
 * the maps style a record by new/owned (emphasis "record"), not by tier. */
export const LUNABOT_TIERS = {
  source: {
    repo: "NeuraXmy/lunabot",
    path: "example_config/sekai/sekai.yaml",
    key: "mysekai.rare_res_keys (2 = top tier, 1 = rare)",
    commit: "949cc6d98780309a910710f6e8158fc1638b8538",
  },
  super: [
    "mysekai_material_5", "mysekai_material_12", "mysekai_material_20", "mysekai_material_24",
    "mysekai_fixture_121", "material_17", "material_170", "material_173",
    "mysekai_material_67~92", "material_174~203",
  ],
  rare: [
    "mysekai_material_32", "mysekai_material_33", "mysekai_material_34", "mysekai_material_61",
    "mysekai_material_64", "mysekai_material_65", "mysekai_material_66", "mysekai_material_93",
    "mysekai_material_94",
  ],
};

export const TIER_RULE =
  "every material a birthday party names is super (the rule, see Birthday parties); otherwise super and rare as lunabot's mysekai.rare_res_keys (levels 2 and 1); a mysekai_material it does not list but " +
  "whose master data ties it to a weather (mysekaiPhenomenaGroupId, like every rare one lunabot lists: 32-34, 61, " +
  "64-66, 93, 94) is rare too: 95 and 96 came after lunabot's list, and Team-Haruki/Haruki-Drawing-API " +
  "(scripts/parity_payloads/gen_mysekai.py resourceRarity @d2109c35, which rates every rarity_2 material rare) " +
  "agrees; everything else common (Haruki's rule would also make 11, 62 and 63 rare; lunabot does not). Music " +
  "records are not tiered: a new record is drawn rare-styled, an owned one common.";

export const PARTY_NOTE =
  "`parties` is JP's birthdayParties (party id, assetbundleName, character and its given name per language, year, " +
  "spawn group = mysekaiSiteHarvestSpawnLimitedRelationGroupId, harvest fixture id, the materials it names: " +
  "deliveryItemMaterialId and deliveryRewardMysekaiMaterialId). Rule: every material a party names is top tier, " +
  "whatever its id (2026 parties leave the old 174-203 range); a harvest point or drop carrying a party's spawn " +
  "group is a party-limited spawn (the maps call it out). `tierDifferences` lists where this rule and lunabot's " +
  "list differ.";

/** English templates for the birthday series: EN's master data has no birthday party yet. The flower keeps the
 * English the Japanese name is written in (セレブレーションフラワー); 祝祭のあまつゆ is translated here. */
export const EN_TEMPLATES = { flower: "{}'s Celebration Flower", dew: "Festive Dew ({})" };

/** Names of ids that only the JP server has (or that the server of a language lacks and no pattern covers). */
export const TRANSLATED_HERE: Record<string, Partial<Record<NameLang, string>>> = {
  "site:9": { en: "Festival Garden" },
  "mysekai_material:93": { en: "SEKAI Bits" },
  "mysekai_material:94": { en: "Space Component", zh: "太空零件", "zh-Hant": "太空零件", ko: "스페이스 컴포넌트" },
  "mysekai_material:95": { en: "Soap Bubble", zh: "肥皂泡泡", "zh-Hant": "肥皂泡泡", ko: "비눗방울" },
  "mysekai_material:96": { en: "Water Drop Pearl", zh: "水珠珍珠", "zh-Hant": "水珠珍珠", ko: "물방울 진주" },
  "phenomena:12": { en: "Bubbles", zh: "泡泡", "zh-Hant": "泡泡", ko: "비눗방울" },
  "phenomena:13": { en: "Space", zh: "宇宙", "zh-Hant": "宇宙", ko: "우주" },
  "phenomena:14": { en: "SEKAI" },
  "phenomena:16": { en: "Underwater", zh: "水中", "zh-Hant": "水中", ko: "수중" },
  "material:200": { en: "Red Memory Piece" },
  "material:201": { en: "Blue Memory Piece" },
  "material:202": { en: "Purple Memory Piece" },
  "material:203": { en: "Rainbow Memory Piece" },
};

export const SITE_GEOMETRY_CONVENTION =
  "Pixel position on the full 1920x1080 site image: px = 960 + offset_x + dir_x * grid_size * u, py = 540 + " +
  "offset_z + dir_z * grid_size * v, where (u, v) = (positionZ, positionX) when rev_xz is true, else (positionX, " +
  "positionZ); positions are the harvest-map positionX/positionZ values. crop_bbox is [left, top, width, height] " +
  "in the same 1920x1080 pixel space; after cropping subtract left/top. Any output scale multiplies all terms.";

export const SITE_GEOMETRY_SOURCE =
  "Sites 5-8: lunabot NeuraXmy/lunabot example_config/sekai/mysekai_site_map_image_info.yaml (commit 949cc6d9; " +
  "the same numbers in Aposetles/nonebot_mysekaianalyser_plugin SITE_MAP_CONFIGS and, but for crop, " +
  "Huac233/pjsk-mysekai-xray js/config.js). Site 9 (festival_garden): no public renderer has it (lunabot's file " +
  "stops at 8, so do Huac233, Aposetles and Team-Haruki/Haruki-Drawing-API @d2109c35 of 2026-08-15), so it is " +
  "fitted here: master data gives every harvest site the same " +
  "harvest grid (mysekaiSiteHarvestUnavailableSpots of sites 5-8 all span positions -30..30) and site 9 the " +
  "floor of sites 7 and 8 (mysekaiSiteLayouts: 100 x 100), so positions -30..30 fill the 1280x1080 map with a " +
  "margin, x to the right and z upwards like the fitted layout of an unknown site. No site image exists to " +
  "align with: an asset-pack background for site 9 would not line up.";

export const SITE_GEOMETRY = [
  { siteId: 5, grid_size: 33.333, offset_x: 0, offset_z: -60, dir_x: -1, dir_z: -1, rev_xz: true, crop_bbox: [300, 0, 1280, 1080] },
  { siteId: 6, grid_size: 20.513, offset_x: 0, offset_z: 80, dir_x: 1, dir_z: -1, rev_xz: false, crop_bbox: [300, 0, 1280, 1080] },
  { siteId: 7, grid_size: 24.806, offset_x: -62.015, offset_z: 20.672, dir_x: -1, dir_z: -1, rev_xz: true, crop_bbox: [350, 0, 1280, 1080] },
  { siteId: 8, grid_size: 21.333, offset_x: 0, offset_z: -130, dir_x: 1, dir_z: -1, rev_xz: false, crop_bbox: [200, 0, 1280, 1080] },
  { siteId: 9, grid_size: 16.5, offset_x: 0, offset_z: 0, dir_x: 1, dir_z: -1, rev_xz: false, crop_bbox: [320, 0, 1280, 1080] },
];
