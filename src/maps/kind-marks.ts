/**
 * The marks of common drops: one per kind of material, told apart by shape as well as colour (colour alone fails
 * for colour-blind players). Colours are from the Okabe–Ito palette, which the common forms of colour blindness
 * keep apart; each shape belongs to one kind, so the shape alone already says which kind it is.
 */
import { n } from "./svg-util.ts";

export type MarkShape = "triangle" | "square" | "circle" | "triangleDown" | "plus" | "hexagon" | "ring" | "star" | "cross" | "pentagon" | "dashed";

interface KindMark {
  shape: MarkShape;
  colour: string;
}

const KIND_MARKS: Record<string, KindMark> = {
  wood: { shape: "triangle", colour: "#e69f00" },
  mineral: { shape: "square", colour: "#0072b2" },
  plant: { shape: "circle", colour: "#009e73" },
  junk: { shape: "cross", colour: "#d55e00" },
  item: { shape: "plus", colour: "#4d4d4d" },
  fixture: { shape: "hexagon", colour: "#cc79a7" },
  music_record: { shape: "ring", colour: "#0072b2" },
  tone: { shape: "star", colour: "#56b4e9" },
  game_character: { shape: "triangleDown", colour: "#cc79a7" },
  birthday_party: { shape: "triangleDown", colour: "#cc79a7" },
  material: { shape: "pentagon", colour: "#b8a100" },
};
const UNKNOWN_MARK: KindMark = { shape: "dashed", colour: "#555555" };

/** The mark of a kind (materialType or type family); "unknown" and kinds the table lacks share a dashed grey dot. */
export function kindMark(kind: string): KindMark & { id: string } {
  const mark = KIND_MARKS[kind] ?? UNKNOWN_MARK;
  return { ...mark, id: `${mark.shape}:${mark.colour}` };
}

/** Radius of a common mark at scale 1 (layout px); a spot's row of marks is spaced by its diameter plus a gap. */
export const KIND_MARK_RADIUS = 10;

function polygon(x: number, y: number, r: number, corners: number, start: number): string {
  const pts: string[] = [];
  for (let i = 0; i < corners; i++) {
    const a = start + (i * 2 * Math.PI) / corners;
    pts.push(`${n(x + r * Math.cos(a))},${n(y + r * Math.sin(a))}`);
  }
  return pts.join(" ");
}

function star(x: number, y: number, r: number): string {
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 === 0 ? r : r * 0.45;
    pts.push(`${n(x + rr * Math.cos(a))},${n(y + rr * Math.sin(a))}`);
  }
  return pts.join(" ");
}

/** The mark of `kind` centred on (x, y), radius `r`, white-edged so it stands out on any ground. */
export function kindMarkSvg(x: number, y: number, kind: string, r: number, faded: boolean): string {
  const { shape, colour } = kindMark(kind);
  const attrs = `class="drop-common" data-mark="${shape}" fill="${colour}" stroke="#ffffff" stroke-width="${n(r * 0.24)}"${faded ? ` opacity="0.35"` : ""}`;
  const t = r * 0.3; // half the width of a plus or cross arm
  switch (shape) {
    case "triangle":
      return `<polygon ${attrs} points="${polygon(x, y + r * 0.15, r * 1.1, 3, -Math.PI / 2)}"/>`;
    case "triangleDown":
      return `<polygon ${attrs} points="${polygon(x, y - r * 0.15, r * 1.1, 3, Math.PI / 2)}"/>`;
    case "square":
      return `<rect ${attrs} x="${n(x - r * 0.85)}" y="${n(y - r * 0.85)}" width="${n(r * 1.7)}" height="${n(r * 1.7)}"/>`;
    case "circle":
      return `<circle ${attrs} cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.9)}"/>`;
    case "dashed":
      return `<circle ${attrs} cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.8)}" stroke-dasharray="2 2"/>`;
    case "ring":
      return `<circle class="drop-common" data-mark="ring" fill="none" stroke="${colour}" stroke-width="${n(r * 0.4)}"${faded ? ` opacity="0.35"` : ""} cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.7)}"/>`;
    case "hexagon":
      return `<polygon ${attrs} points="${polygon(x, y, r, 6, 0)}"/>`;
    case "pentagon":
      return `<polygon ${attrs} points="${polygon(x, y, r, 5, -Math.PI / 2)}"/>`;
    case "star":
      return `<polygon ${attrs} points="${star(x, y, r * 1.15)}"/>`;
    case "plus":
      return plusPath(x, y, r, t, attrs);
    case "cross":
      return `<g transform="rotate(45 ${n(x)} ${n(y)})">${plusPath(x, y, r, t, attrs)}</g>`;
  }
}

function plusPath(x: number, y: number, r: number, t: number, attrs: string): string {
  return `<path ${attrs} d="M${n(x - t)} ${n(y - r)}H${n(x + t)}V${n(y - t)}H${n(x + r)}V${n(y + t)}H${n(x + t)}V${n(y + r)}H${n(x - t)}V${n(y + t)}H${n(x - r)}V${n(y - t)}H${n(x - t)}Z"/>`;
}
