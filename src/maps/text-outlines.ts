/**
 * Text as cached glyph outlines. resvg lays out and outlines every `<text>` on every render (~18 µs a glyph,
 * ~2,700 glyphs a save: a third of a save's render CPU, whatever the pixel count). The SVG builders keep
 * writing `<text>` (svg-util.ts's `text()`, the one writer); just before rendering, each is replaced by one
 * `<path>` of the same glyphs, laid out once per string and outlined once per glyph from the same font files,
 * placed with the same advances and kerning. A `<text>` this does not recognise is left for resvg.
 */
import { parse, type Font, type Glyph } from "opentype.js";
import { readFileSync } from "node:fs";
import { fontFiles } from "./font-files.ts";

interface Outline {
  /** The first point, absolute, in font units. */
  x: number;
  y: number;
  /** The rest of the outline in relative commands from that point. */
  tail: string;
}

interface LaidOut {
  glyphs: number[];
  /** Pen position of each glyph, in font units, and the total advance. */
  offsets: number[];
  width: number;
}

class OutlineFont {
  private readonly outlines = new Map<number, Outline | null>();
  private readonly layouts = new Map<string, LaidOut>();

  constructor(private readonly font: Font) {}

  get unitsPerEm(): number {
    return this.font.unitsPerEm;
  }

  layout(content: string): LaidOut {
    const known = this.layouts.get(content);
    if (known) return known;
    const glyphs = this.font.stringToGlyphs(content);
    const offsets: number[] = [];
    let pen = 0;
    glyphs.forEach((glyph, i) => {
      if (i > 0) pen += this.font.getKerningValue(glyphs[i - 1]!, glyph);
      offsets.push(pen);
      pen += glyph.advanceWidth ?? 0;
    });
    const laidOut = { glyphs: glyphs.map((glyph) => glyph.index), offsets, width: pen };
    // Labels repeat across saves (resource names and counts); the bound keeps odd strings from piling up.
    if (this.layouts.size >= MAX_LAYOUTS) this.layouts.delete(this.layouts.keys().next().value!);
    this.layouts.set(ownCopy(content), laidOut);
    return laidOut;
  }

  /** Null for a glyph with nothing to draw (a space). */
  outline(index: number): Outline | null {
    if (this.outlines.has(index)) return this.outlines.get(index)!;
    const outline = toRelative(this.font.glyphs.get(index));
    this.outlines.set(index, outline);
    return outline;
  }
}

const MAX_LAYOUTS = 4000;

/**
 * The text in a string of its own. A label is cut out of a whole SVG (a regex capture), and JSC's substrings
 * share their source's buffer: kept as a cache key, each would keep its map's SVG (~30 KB) alive, ~25 MB once
 * the cache is full.
 */
function ownCopy(text: string): string {
  return text.split("").join("");
}

function toRelative(glyph: Glyph): Outline | null {
  const commands = glyph.path.commands;
  if (commands.length === 0) return null;
  // Font units are integers here; rounding keeps the relative steps exact (no drift along an outline).
  const r = Math.round;
  let start: { x: number; y: number } | null = null;
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  let tail = "";
  for (const c of commands) {
    if (c.type === "Z") {
      tail += "z";
      cx = sx;
      cy = sy;
      continue;
    }
    const x = r(c.x);
    const y = r(c.y);
    if (c.type === "M") {
      if (start === null) start = { x, y };
      else tail += `m${x - cx} ${y - cy}`;
      sx = x;
      sy = y;
    } else if (c.type === "L") tail += `l${x - cx} ${y - cy}`;
    else if (c.type === "Q") tail += `q${r(c.x1) - cx} ${r(c.y1) - cy} ${x - cx} ${y - cy}`;
    else tail += `c${r(c.x1) - cx} ${r(c.y1) - cy} ${r(c.x2) - cx} ${r(c.y2) - cy} ${x - cx} ${y - cy}`;
    cx = x;
    cy = y;
  }
  // Kept for the process' life: one flat string, not the rope of a few hundred pieces `+=` built (each piece a
  // cell that every full collection marks again).
  return start === null ? null : { x: start.x, y: start.y, tail: ownCopy(tail) };
}

let fonts: { regular: OutlineFont; bold: OutlineFont } | null = null;

function loadedFonts(): { regular: OutlineFont; bold: OutlineFont } {
  if (fonts) return fonts;
  const [regular, bold] = fontFiles().map((path) => {
    const bytes = readFileSync(path);
    // lowMemory: glyphs are parsed when first asked for, not all ~3,900 of each font up front as closures that
    // stay alive. Both fonts then hold 3.6 MB and ~25,000 cells instead of 8.2 MB and ~45,000, which the
    // worker's full collection after every save marks again.
    return new OutlineFont(parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { lowMemory: true }));
  });
  fonts = { regular: regular!, bold: bold! };
  return fonts;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/** Exactly what `text()` writes; anything else stays a `<text>`. */
const TEXT_ELEMENT =
  /<text x="(-?[\d.]+)" y="(-?[\d.]+)" font-size="([\d.]+)" fill="(#[0-9a-fA-F]{3,8})"( font-weight="bold")?(?: text-anchor="(middle|end)")?(?: opacity="([\d.]+)")?>([^<]*)<\/text>/g;

/** White space as resvg reads a `<text>`'s characters: line breaks and tabs are spaces, runs collapse, ends trim. */
function collapseSpaces(content: string): string {
  return content.replace(/[\t\r\n]/g, " ").replace(/^ +| +$/g, "").replace(/ {2,}/g, " ");
}

function pathOf(match: string[]): string {
  const [, xs, ys, sizeText, fill, bold, anchor, opacity, escaped] = match;
  const { regular, bold: boldFont } = loadedFonts();
  const font = bold ? boldFont : regular;
  const content = collapseSpaces(escaped!.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => ENTITIES[entity]!));
  const laidOut = font.layout(content);
  const scale = Number(sizeText) / font.unitsPerEm;
  const shift = anchor === "middle" ? laidOut.width / 2 : anchor === "end" ? laidOut.width : 0;
  let d = "";
  laidOut.glyphs.forEach((index, i) => {
    const outline = font.outline(index);
    if (outline) d += `M${laidOut.offsets[i]! - shift + outline.x} ${outline.y}${outline.tail}`;
  });
  if (d === "") return "";
  const fade = opacity === undefined ? "" : ` opacity="${opacity}"`;
  // Font units are y-up: flip about the baseline.
  return `<path transform="matrix(${scale} 0 0 ${-scale} ${xs} ${ys})" fill="${fill}"${fade} d="${d}"/>`;
}

/** The SVG with every `text()` element drawn as the outlines of its glyphs. */
export function outlineText(svg: string): string {
  return svg.replace(TEXT_ELEMENT, (...match: string[]) => pathOf(match));
}
