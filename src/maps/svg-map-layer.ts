/** The map area of one site: ground, harvest points, drop markers and laid-out labels (an SVG fragment). */
import type { SiteProjection } from "./geometry.ts";
import { SITE_IMAGE_HEIGHT, SITE_IMAGE_WIDTH } from "./geometry.ts";
import type { SiteView } from "./group.ts";
import { KIND_MARK_RADIUS, kindMarkSvg } from "./kind-marks.ts";
import type { Box, Segment } from "./label-layout.ts";
import { COUNT_PAD, layoutMap, LINE_HEIGHT, padOf, type Block, type BlockText, type CountLayout, type LayoutOptions, type MapLayout, type SpotLayout } from "./map-layout.ts";
import { dropMarker, fixtureMarker, iconMarker, labelStyle, RARE_COLOUR, SUPER_COLOUR, SUPER_GLOW } from "./svg-markers.ts";
import { n, text } from "./svg-util.ts";

/** Data URIs from the optional asset pack. */
export interface AssetImages {
  siteBackgrounds: ReadonlyMap<number, string>;
  icons: ReadonlyMap<string, string>;
}

export interface MapLayerOptions extends LayoutOptions {
  assets: AssetImages | null;
}

const SITE_GROUND: Record<number, string> = { 5: "#e3efd5", 6: "#efe6cc", 7: "#f5e2eb", 8: "#e2e1ee" };
const GRID_STEP = 80;
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
  // Axis-aligned hairlines need no anti-aliasing: crisp, they cost resvg ~0.5 ms less a map and look the same.
  out.push(`<path d="${grid.join("")}" stroke="#ffffff" stroke-opacity="0.55" stroke-width="1" shape-rendering="crispEdges"/>`);
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

function leaderLine(block: Block, line: Segment): string {
  const colour = block.emphasis === "super" ? SUPER_COLOUR : block.emphasis === "common" ? "#6b6b6b" : RARE_COLOUR;
  const width = block.emphasis === "common" ? 1.2 : 2.5;
  return `<path class="leader" d="M${n(line.x1)} ${n(line.y1)}L${n(line.x2)} ${n(line.y2)}" stroke="${colour}" stroke-width="${width}"/>`;
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

/** A cluster's count: its kind's mark, then "×N", on a light box. */
function drawCount(c: CountLayout, symbolScale: number): string {
  const r = KIND_MARK_RADIUS * symbolScale;
  const { x, y, w, h } = c.box;
  return [
    `<g class="cluster-count">`,
    `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="#b9b9b9" stroke-width="1"/>`,
    kindMarkSvg(x + COUNT_PAD + r, y + h / 2, c.kind, r, false),
    text(x + COUNT_PAD * 2 + 2 * r, y + h / 2 + c.fontSize * 0.36, c.text, { size: c.fontSize, fill: "#2d2d2d", bold: true }),
    `</g>`,
  ].join("");
}

/** A spot: its rare marker (or the asset pack's icon) and the row of common marks. */
function spotMarker(sp: SpotLayout, opts: MapLayerOptions): string {
  const { emphasis, faded, lead, at } = sp;
  const icon = opts.assets?.icons.get(lead.resource.key);
  const out: string[] = [];
  const marks = sp.marks.map((m) => kindMarkSvg(m.x, m.y, m.kind, m.r, faded));
  if (icon) {
    const ring =
      emphasis === "super"
        ? `<circle cx="${n(at.x)}" cy="${n(at.y)}" r="${n(28 * opts.symbolScale)}" fill="${SUPER_GLOW}" fill-opacity="0.5" stroke="${SUPER_COLOUR}" stroke-width="${n(4 * opts.symbolScale)}"/>`
        : emphasis === "common"
          ? ""
          : `<circle cx="${n(at.x)}" cy="${n(at.y)}" r="${n(20 * opts.symbolScale)}" fill="#ffffff" stroke="${RARE_COLOUR}" stroke-width="${n(3 * opts.symbolScale)}"/>`;
    const size = (emphasis === "common" ? 22 : 32) * opts.symbolScale;
    // A common lead's icon takes its own mark's place in the row.
    const slot = emphasis === "common" ? sp.marks.findIndex((m) => m.kind === lead.resource.kind) : -1;
    const c = slot >= 0 ? sp.marks[slot]! : at;
    if (slot >= 0) marks.splice(slot, 1);
    out.push(`<g class="drop-${emphasis} drop-icon">${ring}${iconMarker(c.x, c.y, icon, size, faded)}</g>`);
  } else if (emphasis !== "common") {
    out.push(dropMarker(at.x, at.y, emphasis, lead.resource.kind, faded, opts.symbolScale));
  }
  return [...marks, ...out].join("");
}

/** The map area as SVG, and the layout it was drawn from (the legend and the list of unplaced labels use it). */
export function mapLayer(view: SiteView, proj: SiteProjection, opts: MapLayerOptions): { svg: string; layout: MapLayout } {
  const layout = layoutMap(view, proj, opts);
  const out = ground(view, proj, opts);
  for (const f of layout.fixtures) out.push(fixtureMarker(f.x, f.y, f.kind, f.harvested, opts.symbolScale));
  // Paint order: leader lines, then markers (commons under rare ones), then labels (highlights on top).
  for (const l of layout.labels) if (l.leader) out.push(leaderLine(l.block, l.leader));
  const byRank = [...layout.spots].sort((a, b) => (b.emphasis === "common" ? 1 : 0) - (a.emphasis === "common" ? 1 : 0));
  for (const sp of byRank) out.push(spotMarker(sp, opts));
  for (const c of layout.counts) out.push(drawCount(c, opts.symbolScale));
  for (let i = layout.labels.length - 1; i >= 0; i--) {
    const l = layout.labels[i]!;
    out.push(drawBlock(l.block, l.box, l.text, opts.labelScale));
  }
  return { svg: out.join("\n"), layout };
}
