/**
 * What a spawn image writes at each spot, and where: a line per resource found there ("月光石 ×2 · 11-28": its
 * name in the image's language, how many refreshes had it there, the newest one's date), super-rare first. The
 * blocks are placed by the maps' label layout (src/maps/label-layout.ts: never over another label or a spot's
 * mark); a block of several lines with no free place is tried again as its first line and "+N", and listed whole
 * under the image, as is a block with no place at all (the site maps' list).
 */
import type { Locale } from "../maps/catalog.ts";
import type { SiteProjection } from "../maps/geometry.ts";
import { layoutLabels, type Box, type PlacedLabel } from "../maps/label-layout.ts";
import { LINE_HEIGHT, padOf } from "../maps/map-layout.ts";
import { describeResource } from "../maps/resources.ts";
import { textWidth, truncateToWidth } from "../maps/svg-util.ts";
import { TEXT_PX } from "../maps/text-sizes.ts";
import type { SpawnSpot } from "./collect.ts";

/** Lines per block: the resources found most often at the spot; the rest counted on a last "+N" line. */
export const LINES_PER_SPOT = 4;
export const SPAWN_LABEL_PX = TEXT_PX.rareLabel;
const MAX_LINE_PX = 900;

export interface SpawnLine {
  text: string;
  tier: "super" | "rare";
}

export interface SpawnBlock {
  spot: SpawnSpot;
  at: { x: number; y: number };
  /** Radius of the spot's mark. */
  r: number;
  tier: "super" | "rare";
  lines: SpawnLine[];
  w: number;
  h: number;
}

export interface SpawnLabels {
  /** One per spot, in the spots' order. */
  blocks: SpawnBlock[];
  /** Whole blocks, and blocks shortened to their first line and "+N" (then also listed whole). */
  placed: (SpawnBlock & PlacedLabel & { short: boolean })[];
  /** Listed under the image, in the spots' order: the shortened ones and those with no place. */
  listed: SpawnBlock[];
}

export const spotRadius = (spot: SpawnSpot) => Math.min(26, 14 + 3 * spot.finds.length);

export function spotLines(spot: SpawnSpot, locale: Locale, date: (at: number) => string): SpawnLine[] {
  const byKey = new Map<string, { type: string; id: number; tier: "super" | "rare"; count: number; newest: number }>();
  for (const f of spot.finds) {
    const seen = byKey.get(f.key);
    if (seen) {
      seen.count++;
      seen.newest = Math.max(seen.newest, f.at);
    } else byKey.set(f.key, { type: f.type, id: f.id, tier: f.tier, count: 1, newest: f.at });
  }
  const kinds = [...byKey.values()].sort((a, b) => Number(a.tier === "rare") - Number(b.tier === "rare") || b.count - a.count || b.newest - a.newest);
  const shown = kinds.length > LINES_PER_SPOT ? kinds.slice(0, LINES_PER_SPOT - 1) : kinds;
  const lines = shown.map((k) => ({
    text: truncateToWidth(`${describeResource(k.type, k.id, locale, new Set()).name} ×${k.count} · ${date(k.newest)}`, MAX_LINE_PX, SPAWN_LABEL_PX, true),
    tier: k.tier,
  }));
  if (shown.length < kinds.length) lines.push({ text: `+${kinds.length - shown.length}`, tier: "rare" });
  return lines;
}

export function spawnLabels(spots: readonly SpawnSpot[], proj: SiteProjection, locale: Locale, date: (at: number) => string): SpawnLabels {
  const pad = padOf(SPAWN_LABEL_PX);
  const blocks: SpawnBlock[] = spots.map((spot) => {
    const lines = spotLines(spot, locale, date);
    const w = Math.max(...lines.map((l) => textWidth(l.text, SPAWN_LABEL_PX, true))) + 2 * pad;
    const h = lines.length * SPAWN_LABEL_PX * LINE_HEIGHT + 2 * pad - SPAWN_LABEL_PX * (LINE_HEIGHT - 1);
    const tier = spot.finds.some((f) => f.tier === "super") ? "super" : "rare";
    return { spot, at: proj.project(spot.x, spot.z), r: spotRadius(spot), tier, lines, w, h };
  });
  const marks: Box[] = blocks.map((b) => ({ x: b.at.x - b.r, y: b.at.y - b.r, w: 2 * b.r, h: 2 * b.r }));
  const bounds = { x: 4, y: 4, w: proj.width - 8, h: proj.height - 8 };
  const request = (b: SpawnBlock) => ({ anchorX: b.at.x, anchorY: b.at.y, markerRadius: b.r, width: b.w, height: b.h });
  const whole = layoutLabels(blocks.map(request), [], marks, bounds);
  const out: SpawnLabels = { blocks, placed: [], listed: [] };
  blocks.forEach((b, i) => whole[i] && out.placed.push({ ...b, ...whole[i], short: false }));
  // Second pass, around the first: a crowded spot still names its lead find beside it.
  const retry = blocks.filter((b, i) => !whole[i] && b.lines.length > 1).map((b) => shortened(b, pad));
  const short = layoutLabels(retry.map(request), [], marks, bounds, out.placed);
  retry.forEach((b, i) => short[i] && out.placed.push({ ...b, ...short[i], short: true }));
  out.listed = blocks.filter((b) => !out.placed.some((p) => p.spot === b.spot && !p.short));
  return out;
}

/** The block as one line: its lead find and how many more kinds the spot had ("ダイヤモンド ×2 · 11-28 +3"). */
function shortened(b: SpawnBlock, pad: number): SpawnBlock {
  const more = b.spot.finds.length > 0 ? new Set(b.spot.finds.map((f) => f.key)).size - 1 : 0;
  const line = { text: `${b.lines[0]!.text} +${more}`, tier: b.lines[0]!.tier };
  return { ...b, lines: [line], w: textWidth(line.text, SPAWN_LABEL_PX, true) + 2 * pad, h: SPAWN_LABEL_PX + 2 * pad };
}
