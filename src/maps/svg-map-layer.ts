/** The map area of one site: ground, harvest points, drop markers and laid-out labels (an SVG fragment). */
import type { Locale } from "./catalog.ts";
import type { SiteProjection } from "./geometry.ts";
import { SITE_IMAGE_HEIGHT, SITE_IMAGE_WIDTH } from "./geometry.ts";
import type { SiteView, Spot, SpotItem } from "./group.ts";
import { layoutLabels, nearestPointOnBox, type Box, type LabelRequest } from "./label-layout.ts";
import { clipText, MAP_LIMITS } from "./limits.ts";
import { dropLabel, emphasisRank, type Emphasis } from "./resources.ts";
import { dropMarker, fixtureMarker, iconMarker, labelStyle, markerRadius, RARE_COLOUR, SUPER_COLOUR, SUPER_GLOW } from "./svg-markers.ts";
import { n, text, textWidth } from "./svg-util.ts";

/** Data URIs from the optional asset pack. */
export interface AssetImages {
  siteBackgrounds: ReadonlyMap<number, string>;
  icons: ReadonlyMap<string, string>;
}

export interface MapLayerOptions {
  locale: Locale;
  /** Output pixels per map pixel (1 for site maps, smaller in overview panels). */
  scale: number;
  /** Size factor of markers (kept larger than `scale` in small panels). */
  symbolScale: number;
  /** Size factor of label text (text-sizes.ts: 1 on site maps). */
  labelScale: number;
  /** "all": drops get labels (site maps); "highlights": only super, rare and new records (overview panels). */
  labels: "all" | "highlights";
  assets: AssetImages | null;
}

const SITE_GROUND: Record<number, string> = { 5: "#e3efd5", 6: "#efe6cc", 7: "#f5e2eb", 8: "#e2e1ee" };
const GRID_STEP = 80;
const LABEL_EMPHASES: readonly Emphasis[] = ["super", "rare", "record", "common"];
/** Inner margin of a label box, in proportion to its text. */
const padOf = (fontSize: number) => Math.round(fontSize * 0.2);
/** Line pitch in a label, in ems: tight, so that a block of several drops takes less of a crowded map. */
const LINE_HEIGHT = 1.2;

interface Block {
  spot: Spot;
  at: { x: number; y: number };
  emphasis: Emphasis;
  items: SpotItem[];
}

function spotEmphasis(items: readonly SpotItem[]): { emphasis: Emphasis; faded: boolean; lead: SpotItem } {
  const live = items.filter((i) => !i.harvested);
  const pool = live.length ? live : items;
  const lead = [...pool].sort((a, b) => emphasisRank(a.resource.emphasis) - emphasisRank(b.resource.emphasis))[0]!;
  return { emphasis: lead.resource.emphasis, faded: live.length === 0, lead };
}

function ground(view: SiteView, proj: SiteProjection, opts: MapLayerOptions): string[] {
  const w = proj.width * opts.scale;
  const h = proj.height * opts.scale;
  const radius = n(18 * opts.scale);
  const out = [`<rect class="ground" width="${n(w)}" height="${n(h)}" rx="${radius}" fill="${SITE_GROUND[view.siteId] ?? "#e8e8e8"}"/>`];
  // Grid lines stop short of the rounded corners: no clip path (a clip costs resvg a full extra layer).
  const inset = 18 * opts.scale;
  const grid: string[] = [];
  for (let x = GRID_STEP; x < proj.width; x += GRID_STEP) grid.push(`M${n(x * opts.scale)} ${n(inset)}V${n(h - inset)}`);
  for (let y = GRID_STEP; y < proj.height; y += GRID_STEP) grid.push(`M${n(inset)} ${n(y * opts.scale)}H${n(w - inset)}`);
  out.push(`<path d="${grid.join("")}" stroke="#ffffff" stroke-opacity="0.55" stroke-width="1"/>`);
  const background = opts.assets?.siteBackgrounds.get(view.siteId);
  if (background && proj.imageOrigin) {
    // Only the asset-pack background needs clipping to the map area.
    const s = opts.scale;
    out.push(
      `<clipPath id="clip-site-${view.siteId}"><rect width="${n(w)}" height="${n(h)}" rx="${radius}"/></clipPath>`,
      `<image x="${n(proj.imageOrigin.x * s)}" y="${n(proj.imageOrigin.y * s)}" width="${n(SITE_IMAGE_WIDTH * s)}" height="${n(SITE_IMAGE_HEIGHT * s)}" clip-path="url(#clip-site-${view.siteId})" xlink:href="${background}"/>`,
    );
  }
  return out;
}

interface BlockText {
  w: number;
  h: number;
  lines: string[];
  /** Per line: drawn faded (an item already harvested). */
  faded: boolean[];
}

function blockSize(block: Block, locale: Locale, labelScale: number): BlockText {
  const style = labelStyle(block.emphasis, labelScale);
  const pad = padOf(style.fontSize);
  const max = MAP_LIMITS.linesPerLabel;
  const shown = block.items.length > max ? block.items.slice(0, max - 1) : block.items;
  const lines = shown.map((i) => clipText(dropLabel(i.resource, i.quantity, locale)));
  const faded = shown.map((i) => i.harvested);
  if (shown.length < block.items.length) {
    lines.push(`+${block.items.length - shown.length}`);
    faded.push(false);
  }
  const w = Math.max(...lines.map((l) => textWidth(l, style.fontSize, style.bold))) + pad * 2;
  const h = lines.length * style.fontSize * LINE_HEIGHT + pad * 2 - style.fontSize * (LINE_HEIGHT - 1);
  return { w, h, lines, faded };
}

function leaderLine(block: Block, box: Box): string {
  const end = nearestPointOnBox(box, block.at.x, block.at.y);
  const colour = block.emphasis === "super" ? SUPER_COLOUR : block.emphasis === "common" ? "#6b6b6b" : RARE_COLOUR;
  const width = block.emphasis === "common" ? 1.2 : 2.5;
  return `<path class="leader" d="M${n(block.at.x)} ${n(block.at.y)}L${n(end.x)} ${n(end.y)}" stroke="${colour}" stroke-width="${width}"/>`;
}

function drawBlock(block: Block, box: Box, { lines, faded }: BlockText, labelScale: number): string {
  const style = labelStyle(block.emphasis, labelScale);
  const pad = padOf(style.fontSize);
  const out: string[] = [`<g class="label label-${block.emphasis}">`];
  out.push(
    `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}" rx="5" fill="${style.fill}" fill-opacity="${style.fillOpacity}" stroke="${style.stroke}" stroke-width="${style.strokeWidth}"/>`,
  );
  lines.forEach((line, i) => {
    const harvested = faded[i] ?? false;
    const baseline = box.y + pad + i * style.fontSize * LINE_HEIGHT + style.fontSize * 0.86;
    out.push(text(box.x + pad, baseline, line, { size: style.fontSize, fill: style.text, bold: style.bold, opacity: harvested ? 0.45 : undefined }));
  });
  out.push(`</g>`);
  return out.join("");
}

function spotMarker(spot: Spot, at: { x: number; y: number }, opts: MapLayerOptions): string {
  const { emphasis, faded, lead } = spotEmphasis(spot.items);
  const icon = opts.assets?.icons.get(lead.resource.key);
  if (!icon) return dropMarker(at.x, at.y, emphasis, lead.resource.kind, faded, opts.symbolScale);
  const ring =
    emphasis === "super"
      ? `<circle cx="${n(at.x)}" cy="${n(at.y)}" r="${n(28 * opts.symbolScale)}" fill="${SUPER_GLOW}" fill-opacity="0.5" stroke="${SUPER_COLOUR}" stroke-width="${n(4 * opts.symbolScale)}"/>`
      : emphasis === "common"
        ? ""
        : `<circle cx="${n(at.x)}" cy="${n(at.y)}" r="${n(20 * opts.symbolScale)}" fill="#ffffff" stroke="${RARE_COLOUR}" stroke-width="${n(3 * opts.symbolScale)}"/>`;
  const size = (emphasis === "common" ? 22 : 32) * opts.symbolScale;
  return `<g class="drop-${emphasis} drop-icon">${ring}${iconMarker(at.x, at.y, icon, size, faded)}</g>`;
}

export function mapLayer(view: SiteView, proj: SiteProjection, opts: MapLayerOptions): string {
  const s = opts.scale;
  const at = (x: number, z: number) => {
    const p = proj.project(x, z);
    return { x: p.x * s, y: p.y * s };
  };
  const out = ground(view, proj, opts);
  for (const f of view.fixtures) {
    const p = at(f.positionX, f.positionZ);
    out.push(fixtureMarker(p.x, p.y, f.kind, f.harvested, opts.symbolScale));
  }

  const blocks: Block[] = [];
  const markerBoxes: Box[] = [];
  const spotsDrawn: { spot: Spot; p: { x: number; y: number }; rank: number }[] = [];
  for (const spot of view.spots) {
    const p = at(spot.positionX, spot.positionZ);
    const { emphasis } = spotEmphasis(spot.items);
    const r = markerRadius(emphasis, opts.symbolScale);
    markerBoxes.push({ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r });
    spotsDrawn.push({ spot, p, rank: emphasisRank(emphasis) });
    // One label per emphasis: a box never lists a rare find under the super-rare colour, nor the other way round.
    for (const e of LABEL_EMPHASES) {
      if (e === "common" && opts.labels !== "all") continue;
      const items = spot.items.filter((i) => i.resource.emphasis === e);
      if (items.length) blocks.push({ spot, at: p, emphasis: e, items });
    }
  }
  blocks.sort((a, b) => emphasisRank(a.emphasis) - emphasisRank(b.emphasis));
  // Placement is quadratic in the labels: only the most important ones get a label, every spot keeps its marker.
  const labelCap = opts.labels === "all" ? MAP_LIMITS.labelsPerMap : MAP_LIMITS.labelsPerPanel;
  const sized = blocks.slice(0, labelCap).map((b) => ({ block: b, text: blockSize(b, opts.locale, opts.labelScale) }));
  const requests: LabelRequest[] = sized.map((b) => ({
    anchorX: b.block.at.x,
    anchorY: b.block.at.y,
    markerRadius: markerRadius(spotEmphasis(b.block.spot.items).emphasis, opts.symbolScale),
    width: b.text.w,
    height: b.text.h,
  }));
  const bounds = { x: 4, y: 4, w: proj.width * s - 8, h: proj.height * s - 8 };
  const placed = layoutLabels(requests, markerBoxes, bounds);
  // Paint order: leader lines, then markers (commons under rare ones), then labels (highlights on top).
  placed.forEach((p, i) => {
    if (p.leader) out.push(leaderLine(sized[i]!.block, p.box));
  });
  // Common markers first so rare markers are painted on top of them.
  spotsDrawn.sort((a, b) => b.rank - a.rank);
  for (const d of spotsDrawn) out.push(spotMarker(d.spot, d.p, opts));

  for (let i = sized.length - 1; i >= 0; i--) {
    out.push(drawBlock(sized[i]!.block, placed[i]!.box, sized[i]!.text, opts.labelScale));
  }
  return out.join("\n");
}
