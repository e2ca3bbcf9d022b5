/** overview.svg: every site as a small panel (rare drops labelled), then the rare summary lines. */
import type { MySekaiSave } from "../save/model.ts";
import { siteProjection } from "./geometry.ts";
import type { SiteView } from "./group.ts";
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { formatRareText } from "./rare-text.ts";
import { buildSummary } from "./summary.ts";
import { mapLayer } from "./svg-map-layer.ts";
import { RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { sitePositions, siteViewsForMaps, type MapOptions } from "./svg-site.ts";
import { n, svgDocument, text, truncateToWidth } from "./svg-util.ts";

const COLUMNS = 2;
const PANEL_SCALE = 0.5;
const SYMBOL_SCALE = 0.8;
const GAP = 16;
const HEADER_H = 84;
const PANEL_TITLE_H = 40;
const RARE_LINE_H = 34;

interface Panel {
  view: SiteView;
  mapW: number;
  mapH: number;
  svg: string;
}

function panel(view: SiteView, save: MySekaiSave, opts: MapOptions): Panel {
  const proj = siteProjection(view.siteId, sitePositions(save, view.siteId));
  const svg = mapLayer(view, proj, {
    locale: opts.locale,
    scale: PANEL_SCALE,
    symbolScale: SYMBOL_SCALE,
    labels: "highlights",
    assets: opts.assets ?? null,
  });
  return { view, mapW: proj.width * PANEL_SCALE, mapH: proj.height * PANEL_SCALE, svg };
}

function rareLines(save: MySekaiSave, opts: MapOptions): string[] {
  const summary = buildSummary(save, opts);
  // The text's first line is the title, already drawn in the header.
  return formatRareText(summary, { locale: opts.locale, timeZone: opts.timeZone }).trimEnd().split("\n").slice(1);
}

export function buildOverviewSvg(save: MySekaiSave, opts: MapOptions): string {
  const ui = UI_STRINGS[opts.locale];
  const panels = siteViewsForMaps(save, opts).map((view) => panel(view, save, opts));
  const cellW = Math.max(640, ...panels.map((p) => p.mapW));
  const cellH = PANEL_TITLE_H + Math.max(540, ...panels.map((p) => p.mapH));
  const columns = Math.min(COLUMNS, Math.max(1, panels.length));
  const rows = Math.ceil(panels.length / columns);
  const width = columns * cellW + (columns + 1) * GAP;
  const lines = rareLines(save, opts);
  const rareTop = HEADER_H + GAP + rows * (cellH + GAP);
  const height = rareTop + 20 + lines.length * RARE_LINE_H + GAP;

  const body = [
    `<rect width="${n(width)}" height="${n(height)}" fill="#f7f7fa"/>`,
    `<rect width="${n(width)}" height="${HEADER_H}" fill="#2b2d42"/>`,
    text(GAP, 50, ui.overviewTitle, { size: 34, fill: "#ffffff", bold: true }),
    text(width - GAP, 36, `${ui.player} ${opts.playerId}`, { size: 18, fill: "#c9cbe0", anchor: "end" }),
    text(width - GAP, 62, formatCaptureTime(opts.capturedAt, opts.timeZone), { size: 18, fill: "#c9cbe0", anchor: "end" }),
  ];
  panels.forEach((p, i) => {
    const x = GAP + (i % columns) * (cellW + GAP);
    const y = HEADER_H + GAP + Math.floor(i / columns) * (cellH + GAP);
    const drops = p.view.totals.reduce((sum, t) => sum + t.total, 0);
    const count = (pred: (e: string) => boolean) =>
      p.view.totals.filter((t) => pred(t.resource.emphasis)).reduce((sum, t) => sum + t.total, 0);
    const supers = count((e) => e === "super");
    const rares = count((e) => e === "rare" || e === "record");
    const rare = supers + rares;
    body.push(text(x, y + 28, truncateToWidth(p.view.name, cellW - 200, 24, true), { size: 24, fill: "#2b2d42", bold: true }));
    const tally = `${ui.drops} ${drops}${supers > 0 ? ` · ★ ${supers}` : ""}${rares > 0 ? ` · ◆ ${rares}` : ""}`;
    body.push(text(x + cellW, y + 28, tally, { size: 18, fill: rare > 0 ? SUPER_COLOUR : "#555555", anchor: "end", bold: rare > 0 }));
    body.push(`<g transform="translate(${n(x)} ${n(y + PANEL_TITLE_H)})">`, p.svg, `</g>`);
  });
  if (panels.length === 0) body.push(text(GAP, HEADER_H + 40, ui.noHarvestMaps, { size: 22, fill: "#555555" }));
  lines.forEach((line, i) => {
    const colour = line.startsWith("★") ? SUPER_COLOUR : line.startsWith("◆") || line.startsWith("●") ? RARE_COLOUR : "#2d2d2d";
    const clipped = truncateToWidth(line, width - 2 * GAP, 22, true);
    body.push(text(GAP, rareTop + 20 + i * RARE_LINE_H + 6, clipped, { size: 22, fill: colour, bold: colour !== "#2d2d2d" }));
  });
  return svgDocument(Math.round(width), Math.round(height), body);
}
