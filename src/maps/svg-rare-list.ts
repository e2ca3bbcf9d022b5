/**
 * The overview's rare list: the rare text's lines in as many columns as the overview's width holds, each site's
 * finds under its name, a line too long for its column wrapped once (a new song's title), then cut with "…".
 */
import type { RareLine } from "./rare-text.ts";
import { RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { text, textWidth, truncateToWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

const PLAIN_COLOUR = "#2d2d2d";
const ROW_H = Math.round(TEXT_PX.rareLine * 1.35);
const INDENT = 40;
/** A column at least this wide; the list takes as many as fit. */
const COLUMN_MIN = 560;

/** A rare line's colour comes from the emphasis of the resource it names. */
export function rareLineColour(line: RareLine): string {
  if (line.emphasis === null) return PLAIN_COLOUR;
  return line.emphasis === "super" ? SUPER_COLOUR : RARE_COLOUR;
}

/** The line's text in one or two rows of `width` px (a second row is indented one more step, cut with "…"). */
function wrapLine(content: string, width: number, bold: boolean): string[] {
  const size = TEXT_PX.rareLine;
  if (textWidth(content, size, bold) <= width) return [content];
  let head = "";
  let used = 0;
  for (const ch of content) {
    const w = textWidth(ch, size, bold);
    if (used + w > width) break;
    head += ch;
    used += w;
  }
  // Break after the last space when there is one in the second half of the row (whole words stay together).
  const space = head.lastIndexOf(" ");
  if (space > head.length / 2) head = head.slice(0, space + 1);
  const tail = content.slice(head.length).trimStart();
  return [head.trimEnd(), truncateToWidth(tail, width - INDENT, size, bold)];
}

interface ListItem {
  line: RareLine;
  rows: string[];
}

/**
 * Items in `columns` columns, top to bottom, of about equal height; a column breaks only before a site's name
 * (a line naming no resource), unless one site alone is taller than a column.
 */
export function rareColumns<T extends { line: RareLine; rows: readonly string[] }>(items: readonly T[], columns: number): T[][] {
  const groups: T[][] = [];
  for (const item of items) {
    if (item.line.emphasis === null || groups.length === 0) groups.push([item]);
    else groups.at(-1)!.push(item);
  }
  const height = (list: readonly T[]) => list.reduce((sum, i) => sum + i.rows.length, 0);
  const target = Math.ceil(height(items) / columns);
  const out: T[][] = [[]];
  for (const group of groups) {
    const current = out.at(-1)!;
    // A site goes to the next column when more than half of it would run past the target height.
    if (current.length > 0 && height(current) + height(group) / 2 > target && out.length < columns) out.push([...group]);
    else current.push(...group);
  }
  return out;
}

/** The list drawn from `top` across `width`, and its height. */
export function rareList(lines: readonly RareLine[], top: number, width: number, gap: number): { svg: string[]; height: number } {
  const columns = Math.max(1, Math.floor((width - gap) / COLUMN_MIN));
  const colW = (width - gap) / columns;
  const items: ListItem[] = lines.map((line) => {
    const indent = line.emphasis === null ? 0 : INDENT;
    const bold = line.emphasis !== null;
    return { line, rows: wrapLine(line.text.trimStart(), colW - indent - gap, bold) };
  });
  const laidOut = rareColumns(items, columns);
  const svg: string[] = [`<g class="rare-list">`];
  laidOut.forEach((column, c) => {
    let row = 0;
    for (const { line, rows } of column) {
      const colour = rareLineColour(line);
      // A find is indented under its site's name (SVG would collapse the text's own leading spaces).
      const indent = line.emphasis === null ? 0 : INDENT;
      rows.forEach((content, i) => {
        const x = gap + c * colW + indent + (i > 0 ? INDENT : 0);
        const y = top + (row + i) * ROW_H + TEXT_PX.rareLine;
        svg.push(text(x, y, content, { size: TEXT_PX.rareLine, fill: colour, bold: line.emphasis !== null }));
      });
      row += rows.length;
    }
  });
  svg.push(`</g>`);
  const height = Math.max(...laidOut.map((column) => column.reduce((sum, i) => sum + i.rows.length, 0))) * ROW_H;
  return { svg, height };
}
