/** The part of opentype.js (which ships no types) that text-outlines.ts uses. */
declare module "opentype.js" {
  export type PathCommand =
    | { type: "M"; x: number; y: number }
    | { type: "L"; x: number; y: number }
    | { type: "Q"; x1: number; y1: number; x: number; y: number }
    | { type: "C"; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
    | { type: "Z" };
  export interface Glyph {
    index: number;
    advanceWidth?: number;
    path: { commands: PathCommand[] };
  }
  export interface Font {
    unitsPerEm: number;
    glyphs: { get(index: number): Glyph };
    stringToGlyphs(text: string): Glyph[];
    getKerningValue(left: Glyph, right: Glyph): number;
  }
  /** `lowMemory`: glyphs parsed on first use instead of all at once. */
  export function parse(buffer: ArrayBuffer, options?: { lowMemory?: boolean }): Font;
}
