/** site_<id>.svg: title bar with the rare count, the map, and a legend of every resource on the site. */
import type { Locale } from "./catalog.ts";
import { siteProjection, type SiteProjection } from "./geometry.ts";
import type { ResourceTotal, SiteView } from "./group.ts";
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { dropLabel } from "./resources.ts";
import type { SaveOutputs, SiteOutputs } from "./save-outputs.ts";
import { mapLayer, type AssetImages } from "./svg-map-layer.ts";
import { dropMarker, RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { MAP_LIMITS } from "./limits.ts";
import { n, svgDocument, text, textWidth, truncateToWidth } from "./svg-util.ts";

const MARGIN = 20;
const TITLE_H = 112;
const LEGEND_COLUMNS = 3;
const LEGEND_ROW = 34;

/** The site's catalogue projection, else one fitted to every position on it (the frame's corners). */
export function projectionOf(site: SiteOutputs): SiteProjection {
  const f = site.frame;
  return siteProjection(site.siteId, f ? [{ positionX: f.minX, positionZ: f.minZ }, { positionX: f.maxX, positionZ: f.maxZ }] : []);
}

/** "★ 钻石 ×3   ◆ 月光石 ×2" chips for the title bar and the overview. */
export function rareChips(totals: readonly ResourceTotal[], locale: Locale): { label: string; colour: string }[] {
  return totals
    .filter((t) => t.resource.emphasis !== "common")
    .map((t) => ({
      label: `${t.resource.emphasis === "super" ? "★" : "◆"} ${dropLabel(t.resource, t.total, locale)}`,
      colour: t.resource.emphasis === "super" ? SUPER_COLOUR : RARE_COLOUR,
    }));
}

function titleBar(view: SiteView, width: number, outputs: SaveOutputs): string[] {
  const ui = UI_STRINGS[outputs.locale];
  const dropCount = view.totals.reduce((sum, t) => sum + t.total, 0);
  const meta = `${ui.player} ${outputs.playerId} · ${formatCaptureTime(new Date(outputs.capturedAt), outputs.timeZone)}`;
  const out = [
    `<rect width="${width}" height="${TITLE_H}" fill="#2b2d42"/>`,
    text(MARGIN, 50, view.name, { size: 38, fill: "#ffffff", bold: true }),
    text(width - MARGIN, 30, meta, { size: 18, fill: "#c9cbe0", anchor: "end" }),
    text(width - MARGIN, 56, `${ui.drops} ${dropCount}`, { size: 18, fill: "#c9cbe0", anchor: "end" }),
  ];
  let x = MARGIN;
  const chips = rareChips(view.totals, outputs.locale);
  if (chips.length === 0) out.push(text(MARGIN, 92, ui.noRare, { size: 22, fill: "#c9cbe0" }));
  for (const [i, chip] of chips.entries()) {
    const w = textWidth(chip.label, 22, true) + 20;
    if (x + w > width - MARGIN - 60) {
      out.push(text(x, 92, `+${chips.length - i}`, { size: 22, fill: "#ffffff", bold: true }));
      break;
    }
    out.push(`<rect x="${n(x)}" y="68" width="${n(w)}" height="34" rx="17" fill="${chip.colour}"/>`);
    out.push(text(x + 10, 92, chip.label, { size: 22, fill: "#ffffff", bold: true }));
    x += w + 10;
  }
  return out;
}

function legend(view: SiteView, top: number, width: number, locale: Locale): string[] {
  const ui = UI_STRINGS[locale];
  const out = [text(MARGIN, top + 28, ui.legend, { size: 22, fill: "#2b2d42", bold: true })];
  if (view.totals.length === 0) {
    out.push(text(MARGIN, top + 66, ui.noDrops, { size: 18, fill: "#555555" }));
    return out;
  }
  const colW = (width - 2 * MARGIN) / LEGEND_COLUMNS;
  const overflow = view.totals.length > MAP_LIMITS.legendEntries;
  const shown = overflow ? view.totals.slice(0, MAP_LIMITS.legendEntries - 1) : view.totals;
  const slot = (i: number) => ({ x: MARGIN + (i % LEGEND_COLUMNS) * colW, y: top + 44 + Math.floor(i / LEGEND_COLUMNS) * LEGEND_ROW });
  shown.forEach((t, i) => {
    const { x, y } = slot(i);
    const e = t.resource.emphasis;
    const scale = e === "common" ? 1 : 0.55;
    out.push(dropMarker(x + 14, y + 14, e, t.resource.kind, false, scale));
    const bold = e !== "common";
    const colour = e === "super" ? SUPER_COLOUR : e === "common" ? "#2d2d2d" : RARE_COLOUR;
    const label = truncateToWidth(dropLabel(t.resource, t.total, locale), colW - 44, 18, bold);
    out.push(text(x + 34, y + 21, label, { size: 18, fill: colour, bold }));
  });
  if (overflow) {
    const { x, y } = slot(shown.length);
    out.push(text(x + 34, y + 21, `+${view.totals.length - shown.length}`, { size: 18, fill: "#555555", bold: true }));
  }
  return out;
}

export function legendHeight(view: SiteView): number {
  const entries = Math.min(view.totals.length, MAP_LIMITS.legendEntries);
  const rows = Math.max(1, Math.ceil(entries / LEGEND_COLUMNS));
  return 44 + rows * LEGEND_ROW + 16;
}

export function buildSiteSvg(outputs: SaveOutputs, siteId: number, assets: AssetImages | null = null): string {
  const site = outputs.sites.find((s) => s.siteId === siteId);
  if (!site) throw new Error(`site ${siteId} is not in the save`);
  const proj = projectionOf(site);
  const width = proj.width + 2 * MARGIN;
  const mapTop = TITLE_H + MARGIN;
  const legendTop = mapTop + proj.height + 8;
  const height = legendTop + legendHeight(site);
  const body = [
    `<rect width="${width}" height="${height}" fill="#f7f7fa"/>`,
    ...titleBar(site, width, outputs),
    `<g transform="translate(${MARGIN} ${mapTop})">`,
    mapLayer(site, proj, { locale: outputs.locale, scale: 1, symbolScale: 1, labels: "all", assets }),
    `</g>`,
    ...legend(site, legendTop, width, outputs.locale),
  ];
  return svgDocument(width, height, body);
}
