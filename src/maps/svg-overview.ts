/** overview.svg: every site as a small panel (rare drops labelled), then the rare summary lines in columns. */
import type { Locale } from "./catalog.ts";
import { UI_STRINGS } from "./i18n.ts";
import { MAP_LIMITS } from "./limits.ts";
import { rareText } from "./rare-text.ts";
import { isBirthdayParty, type SaveOutputs, type SiteOutputs } from "./save-outputs.ts";
import { metaLine } from "./svg-header.ts";
import { mapLayer, type AssetImages } from "./svg-map-layer.ts";
import { rareList } from "./svg-rare-list.ts";
import { SUPER_COLOUR } from "./svg-markers.ts";
import { projectionOf } from "./svg-site.ts";
import { n, svgDocument, text, textWidth, truncateToWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

const COLUMNS = 2;
const PANEL_SCALE = 0.5;
const SYMBOL_SCALE = 0.8;
/** Panel labels are a little smaller than a site map's (7.3 CSS px cap height for rare finds): the rare list below holds every find at full size. */
const LABEL_SCALE = 0.8;
const GAP = 16;
const HEADER_H = 124;
const META_LINE = 38;
const PANEL_TITLE_H = 60;

interface Panel {
  view: SiteOutputs;
  mapW: number;
  mapH: number;
  svg: string;
}

function panel(view: SiteOutputs, locale: Locale, assets: AssetImages | null): Panel {
  const proj = projectionOf(view);
  const svg = mapLayer(view, proj, { locale, scale: PANEL_SCALE, symbolScale: SYMBOL_SCALE, labelScale: LABEL_SCALE, labels: "highlights", labelCap: MAP_LIMITS.labelsPerPanel, clusterCounts: false, assets }).svg;
  return { view, mapW: proj.width * PANEL_SCALE, mapH: proj.height * PANEL_SCALE, svg };
}

/**
 * As a site map's title bar: what it is (a birthday party's delivery says so), then player, time and weather. A
 * party's overview is one panel wide: the title shrinks to fit (down to the meta size), the meta takes two lines.
 */
function header(outputs: SaveOutputs, width: number): string[] {
  const ui = UI_STRINGS[outputs.locale];
  const title = isBirthdayParty(outputs) ? ui.partyRefreshTitle : ui.overviewTitle;
  const room = width - 2 * GAP;
  const size = Math.max(TEXT_PX.meta, Math.min(TEXT_PX.siteTitle, Math.floor((TEXT_PX.siteTitle * room) / textWidth(title, TEXT_PX.siteTitle, true))));
  const meta = metaLine(outputs);
  const cut = meta.indexOf(" · ");
  const lines = textWidth(meta, TEXT_PX.meta) <= room || cut < 0 ? [meta] : [meta.slice(0, cut), meta.slice(cut + 3)];
  return [
    `<rect width="${n(width)}" height="${headerHeight(outputs, width)}" fill="#2b2d42"/>`,
    text(GAP, 62, truncateToWidth(title, room, size, true), { size, fill: "#ffffff", bold: true }),
    ...lines.map((line, i) => text(GAP, 104 + i * META_LINE, truncateToWidth(line, room, TEXT_PX.meta, false), { size: TEXT_PX.meta, fill: "#c9cbe0" })),
  ];
}

function headerHeight(outputs: SaveOutputs, width: number): number {
  return textWidth(metaLine(outputs), TEXT_PX.meta) <= width - 2 * GAP ? HEADER_H : HEADER_H + META_LINE;
}

export function buildOverviewSvg(outputs: SaveOutputs, assets: AssetImages | null = null): string {
  const ui = UI_STRINGS[outputs.locale];
  const panels = outputs.sites.map((view) => panel(view, outputs.locale, assets));
  const cellW = Math.max(640, ...panels.map((p) => p.mapW));
  const cellH = PANEL_TITLE_H + Math.max(540, ...panels.map((p) => p.mapH));
  const columns = Math.min(COLUMNS, Math.max(1, panels.length));
  const rows = Math.ceil(panels.length / columns);
  const width = columns * cellW + (columns + 1) * GAP;
  const headH = headerHeight(outputs, width);
  // The rare text's title is already drawn in the header.
  const rareLines = rareList(rareText(outputs).lines, headH + GAP + rows * (cellH + GAP) + 12, width, GAP);
  const height = headH + GAP + rows * (cellH + GAP) + 12 + rareLines.height + GAP;

  const head = header(outputs, width);
  const body = [`<rect width="${n(width)}" height="${n(height)}" fill="#f7f7fa"/>`, ...head];
  panels.forEach((p, i) => {
    const x = GAP + (i % columns) * (cellW + GAP);
    const y = headH + GAP + Math.floor(i / columns) * (cellH + GAP);
    const drops = p.view.totals.reduce((sum, t) => sum + t.total, 0);
    const count = (pred: (e: string) => boolean) =>
      p.view.totals.filter((t) => pred(t.resource.emphasis)).reduce((sum, t) => sum + t.total, 0);
    const supers = count((e) => e === "super");
    const rares = count((e) => e === "rare" || e === "record");
    const rare = supers + rares;
    const tally = `${ui.drops} ${drops}${supers > 0 ? ` · ★ ${supers}` : ""}${rares > 0 ? ` · ◆ ${rares}` : ""}`;
    const nameRoom = cellW - textWidth(tally, TEXT_PX.panelTally, rare > 0) - 20;
    body.push(text(x, y + 42, truncateToWidth(p.view.name, nameRoom, TEXT_PX.panelTitle, true), { size: TEXT_PX.panelTitle, fill: "#2b2d42", bold: true }));
    body.push(text(x + cellW, y + 42, tally, { size: TEXT_PX.panelTally, fill: rare > 0 ? SUPER_COLOUR : "#555555", anchor: "end", bold: rare > 0 }));
    body.push(`<g transform="translate(${n(x)} ${n(y + PANEL_TITLE_H)})">`, p.svg, `</g>`);
  });
  if (panels.length === 0) body.push(text(GAP, headH + 50, ui.noHarvestMaps, { size: TEXT_PX.rareLine, fill: "#555555" }));
  body.push(...rareLines.svg);
  return svgDocument(Math.round(width), Math.round(height), body);
}
