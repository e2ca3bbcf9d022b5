/** overview.svg: every site as a small panel (rare drops labelled), then the rare summary lines. */
import type { Locale } from "./catalog.ts";
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { rareText, type RareLine } from "./rare-text.ts";
import type { SaveOutputs, SiteOutputs } from "./save-outputs.ts";
import { mapLayer, type AssetImages } from "./svg-map-layer.ts";
import { RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { projectionOf } from "./svg-site.ts";
import { n, svgDocument, text, truncateToWidth } from "./svg-util.ts";

const COLUMNS = 2;
const PANEL_SCALE = 0.5;
const SYMBOL_SCALE = 0.8;
const GAP = 16;
const HEADER_H = 84;
const PANEL_TITLE_H = 40;
const RARE_LINE_H = 34;
const RARE_INDENT = 28;

const PLAIN_COLOUR = "#2d2d2d";

interface Panel {
  view: SiteOutputs;
  mapW: number;
  mapH: number;
  svg: string;
}

function panel(view: SiteOutputs, locale: Locale, assets: AssetImages | null): Panel {
  const proj = projectionOf(view);
  const svg = mapLayer(view, proj, { locale, scale: PANEL_SCALE, symbolScale: SYMBOL_SCALE, labels: "highlights", assets });
  return { view, mapW: proj.width * PANEL_SCALE, mapH: proj.height * PANEL_SCALE, svg };
}

/** A rare line's colour comes from the emphasis of the resource it names. */
export function rareLineColour(line: RareLine): string {
  if (line.emphasis === "super") return SUPER_COLOUR;
  return line.emphasis === null ? PLAIN_COLOUR : RARE_COLOUR;
}

export function buildOverviewSvg(outputs: SaveOutputs, assets: AssetImages | null = null): string {
  const ui = UI_STRINGS[outputs.locale];
  const panels = outputs.sites.map((view) => panel(view, outputs.locale, assets));
  const cellW = Math.max(640, ...panels.map((p) => p.mapW));
  const cellH = PANEL_TITLE_H + Math.max(540, ...panels.map((p) => p.mapH));
  const columns = Math.min(COLUMNS, Math.max(1, panels.length));
  const rows = Math.ceil(panels.length / columns);
  const width = columns * cellW + (columns + 1) * GAP;
  // The rare text's title is already drawn in the header.
  const lines = rareText(outputs).lines;
  const rareTop = HEADER_H + GAP + rows * (cellH + GAP);
  const height = rareTop + 20 + lines.length * RARE_LINE_H + GAP;

  const body = [
    `<rect width="${n(width)}" height="${n(height)}" fill="#f7f7fa"/>`,
    `<rect width="${n(width)}" height="${HEADER_H}" fill="#2b2d42"/>`,
    text(GAP, 50, ui.overviewTitle, { size: 34, fill: "#ffffff", bold: true }),
    text(width - GAP, 36, `${ui.player} ${outputs.playerId}`, { size: 18, fill: "#c9cbe0", anchor: "end" }),
    text(width - GAP, 62, formatCaptureTime(new Date(outputs.capturedAt), outputs.timeZone), { size: 18, fill: "#c9cbe0", anchor: "end" }),
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
    const colour = rareLineColour(line);
    // A find is indented under its site's name (SVG would collapse the text's own leading spaces).
    const indent = line.emphasis === null ? 0 : RARE_INDENT;
    const clipped = truncateToWidth(line.text.trimStart(), width - 2 * GAP - indent, 22, true);
    body.push(text(GAP + indent, rareTop + 20 + i * RARE_LINE_H + 6, clipped, { size: 22, fill: colour, bold: colour !== PLAIN_COLOUR }));
  });
  return svgDocument(Math.round(width), Math.round(height), body);
}
