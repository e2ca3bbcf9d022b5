/**
 * One site's month of rare spawns as an SVG in the maps' projection (src/maps/geometry.ts): a mark per spot
 * coloured by its best find (super-rare, rare) with the number of finds on it, and beside it what was found there
 * (labels.ts); a legend line for the two colours. At most MAX_SPOTS spots are drawn (the busiest), and the image
 * says so when there are more.
 */
import type { Locale } from "../maps/catalog.ts";
import { siteProjection } from "../maps/geometry.ts";
import { UI_STRINGS } from "../maps/i18n.ts";
import { MAP_LIMITS } from "../maps/limits.ts";
import { RARE_COLOUR, SUPER_COLOUR, SUPER_GLOW } from "../maps/svg-markers.ts";
import { listHeight, listSvg } from "../maps/svg-unplaced.ts";
import { n, svgDocument, text, textWidth, truncateToWidth } from "../maps/svg-util.ts";
import { TEXT_PX } from "../maps/text-sizes.ts";
import type { SpawnSpot } from "./collect.ts";
import { SPAWN_LABEL_PX, spawnLabels, type SpawnBlock } from "./labels.ts";

/** Spots drawn per image, most finds first: label placement is quadratic in them. Real sites have 10–30. */
export const MAX_SPOTS = 60;
const MARGIN = 20;
const LINE = 42;

export interface SpawnSvgText {
  locale: Locale;
  siteName: string;
  /** "Rare finds, last 30 days: 12 on 5 spots". */
  subtitle: string;
  /** "11-03" in the player's time zone. */
  date: (at: number) => string;
}

const tierColour = (tier: "super" | "rare") => (tier === "super" ? SUPER_COLOUR : RARE_COLOUR);

/** A, B, … Z, AA, AB, …: the tag of a spot listed under the image, on its mark and its entry. */
const tagOf = (i: number) => (i < 26 ? "" : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26));

/** The spot's mark with the number of finds on it, or, for a spot listed under the image, the entry's tag. */
function spotMark(b: SpawnBlock, tag: string | undefined): string {
  const { x, y } = b.at;
  const size = tag && tag.length > 1 ? 20 : 26;
  return [
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(b.r)}" fill="${tierColour(b.tier)}" stroke="${b.tier === "super" ? SUPER_GLOW : "#ffffff"}" stroke-width="4"/>`,
    text(x, y + size * 0.35, tag ?? String(b.spot.finds.length), { size, fill: "#ffffff", bold: true, anchor: "middle" }),
  ].join("");
}

function block(b: SpawnBlock, box: { x: number; y: number; w: number; h: number }): string {
  const pad = Math.round(SPAWN_LABEL_PX * 0.2);
  const out = [`<g class="spawn-label"><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}" rx="8" fill="#ffffff" stroke="${tierColour(b.tier)}" stroke-width="3"/>`];
  b.lines.forEach((line, i) => {
    const baseline = box.y + pad + SPAWN_LABEL_PX * (0.88 + i * 1.2);
    out.push(text(box.x + pad, baseline, line.text, { size: SPAWN_LABEL_PX, fill: tierColour(line.tier), bold: true }));
  });
  out.push(`</g>`);
  return out.join("");
}

/** The two tiers' colours with their words, then (when capped) how many spots are drawn. */
function header(width: number, t: SpawnSvgText, capped: string | null): { svg: string[]; height: number } {
  const ui = UI_STRINGS[t.locale];
  const height = capped ? 4 * LINE + 40 : 3 * LINE + 40;
  const out = [
    `<rect width="${width}" height="${height}" fill="#24304a"/>`,
    text(MARGIN, 58, truncateToWidth(t.siteName, width - 2 * MARGIN, TEXT_PX.siteTitle, true), { size: TEXT_PX.siteTitle, fill: "#ffffff", bold: true }),
    text(MARGIN, 58 + LINE, truncateToWidth(t.subtitle, width - 2 * MARGIN, TEXT_PX.meta, false), { size: TEXT_PX.meta, fill: "#d6dcea" }),
  ];
  let x = MARGIN;
  const y = 58 + 2 * LINE;
  for (const tier of ["super", "rare"] as const) {
    out.push(`<circle cx="${n(x + 14)}" cy="${n(y - 10)}" r="14" fill="${tierColour(tier)}" stroke="${tier === "super" ? SUPER_GLOW : "#ffffff"}" stroke-width="3"/>`);
    out.push(text(x + 38, y, ui.spawnTiers[tier], { size: TEXT_PX.meta, fill: "#ffffff" }));
    x += 38 + textWidth(ui.spawnTiers[tier], TEXT_PX.meta) + 36;
  }
  if (capped) out.push(text(MARGIN, 58 + 3 * LINE, truncateToWidth(capped, width - 2 * MARGIN, TEXT_PX.meta, false), { size: TEXT_PX.meta, fill: SUPER_GLOW }));
  return { svg: out, height };
}

export function buildSpawnSvg(siteId: number, spots: readonly SpawnSpot[], t: SpawnSvgText): string {
  const drawn = spots.slice(0, MAX_SPOTS);
  const proj = siteProjection(siteId, drawn.map((s) => ({ positionX: s.x, positionZ: s.z })));
  const width = Math.round(proj.width);
  const ui = UI_STRINGS[t.locale];
  const capped = drawn.length < spots.length ? ui.spawnCapped.replace("{shown}", String(drawn.length)).replace("{spots}", String(spots.length)) : null;
  const head = header(width, t, capped);
  const labels = spawnLabels(drawn, proj, t.locale, t.date);
  // The listed spots are tagged on the map, so that the list still says where (the list shows MAP_LIMITS.unplacedEntries).
  const tags = new Map(labels.listed.slice(0, MAP_LIMITS.unplacedEntries).map((b, i) => [b.spot, tagOf(i)]));
  const list = labels.listed.map((b) => {
    const tag = tags.get(b.spot);
    return { line: `${tag ? `${tag}: ` : ""}${b.lines.map((l) => l.text).join(ui.listSeparator)}`, size: SPAWN_LABEL_PX, bold: true, fill: tierColour(b.tier) };
  });
  const mapH = Math.round(proj.height);
  const height = head.height + mapH + listHeight(list, width, t.locale);
  const body = [`<rect width="${width}" height="${height}" fill="#f4f1ea"/>`, ...head.svg, `<g transform="translate(0 ${head.height})">`];
  for (const l of labels.placed) {
    if (l.leader) body.push(`<line x1="${n(l.leader.x1)}" y1="${n(l.leader.y1)}" x2="${n(l.leader.x2)}" y2="${n(l.leader.y2)}" stroke="${tierColour(l.tier)}" stroke-width="3"/>`);
  }
  // Fewest finds first, so the busiest spots are drawn on top; labels over every mark.
  for (const b of [...labels.blocks].sort((a, b) => a.spot.finds.length - b.spot.finds.length)) body.push(spotMark(b, tags.get(b.spot)));
  for (const l of labels.placed) body.push(block(l, l.box));
  body.push(`</g>`, ...listSvg(list, head.height + mapH + 8, width, t.locale));
  return svgDocument(width, height, body);
}
