/**
 * Labels the map had no free place for (label-layout.ts never lets one cover another), listed under the map in
 * reading order, each with its spot's marker shape: finds at the size they have on the map, commons smaller.
 */
import type { Locale } from "./catalog.ts";
import { UI_STRINGS } from "./i18n.ts";
import { MAP_LIMITS } from "./limits.ts";
import type { MapLayout } from "./map-layout.ts";
import { labelStyle } from "./svg-markers.ts";
import { text, textWidth, truncateToWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

const MARGIN = 20;
const ROW = Math.round(TEXT_PX.rareLine * 1.35);
const ENTRY_GAP = 36;

export interface ListEntry {
  line: string;
  size: number;
  bold: boolean;
  fill: string;
}

interface Placed extends ListEntry {
  x: number;
  row: number;
}

/** The first MAP_LIMITS.unplacedEntries entries, then one "+N". */
function capped(all: readonly ListEntry[]): ListEntry[] {
  const out = all.slice(0, MAP_LIMITS.unplacedEntries);
  const more = all.length - out.length;
  if (more > 0) out.push({ line: `+${more}`, size: TEXT_PX.legend, bold: true, fill: "#555555" });
  return out;
}

function entries(layout: MapLayout, locale: Locale): ListEntry[] {
  const ui = UI_STRINGS[locale];
  return layout.unplaced.map(({ block, text: t }) => {
    const style = labelStyle(block.emphasis);
    const fill = block.emphasis === "super" ? style.fill : style.text; // a super label is white on magenta
    return { line: t.lines.join(ui.listSeparator), size: style.fontSize, bold: style.bold, fill };
  });
}

/** Entries flowed into rows after the heading, each cut to fit a row on its own. */
function flow(all: readonly ListEntry[], width: number, locale: Locale): { heading: string; placed: Placed[]; rows: number } {
  const heading = UI_STRINGS[locale].unplacedLabels;
  const right = width - MARGIN;
  let x = MARGIN + textWidth(heading, TEXT_PX.legend, true) + ENTRY_GAP;
  let row = 0;
  const placed: Placed[] = [];
  for (const e of capped(all)) {
    const line = truncateToWidth(e.line, right - MARGIN, e.size, e.bold);
    const w = textWidth(line, e.size, e.bold);
    if (x + w > right && x > MARGIN) {
      row++;
      x = MARGIN;
    }
    placed.push({ ...e, line, x, row });
    x += w + ENTRY_GAP;
  }
  return { heading, placed, rows: placed.length ? row + 1 : 0 };
}

export function unplacedHeight(layout: MapLayout, width: number, locale: Locale): number {
  return listHeight(entries(layout, locale), width, locale);
}

export function unplacedList(layout: MapLayout, top: number, width: number, locale: Locale): string[] {
  return listSvg(entries(layout, locale), top, width, locale);
}

/** The height of a list of labels not placed on an image (the spawn images' too), 0 for none. */
export function listHeight(all: readonly ListEntry[], width: number, locale: Locale): number {
  const { rows } = flow(all, width, locale);
  return rows ? rows * ROW + 16 : 0;
}

export function listSvg(all: readonly ListEntry[], top: number, width: number, locale: Locale): string[] {
  const { heading, placed, rows } = flow(all, width, locale);
  if (rows === 0) return [];
  const baseline = (row: number) => top + row * ROW + TEXT_PX.rareLine;
  const out = [`<g class="unplaced">`, text(MARGIN, baseline(0), heading, { size: TEXT_PX.legend, fill: "#2b2d42", bold: true })];
  for (const p of placed) out.push(text(p.x, baseline(p.row), p.line, { size: p.size, fill: p.fill, bold: p.bold }));
  out.push(`</g>`);
  return out;
}
