/** Vector markers: harvest points by kind, drops by emphasis, and the label styles that go with them. */
import type { FixtureKind } from "./catalog.ts";
import type { Emphasis } from "./resources.ts";
import { n } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

export const SUPER_COLOUR = "#e6007e";
export const SUPER_GLOW = "#ffd400";
export const RARE_COLOUR = "#6d28d9";

/** Common drop colours per kind (materialType, or the type family). */
const KIND_COLOURS: Record<string, string> = {
  wood: "#9a6b3f",
  mineral: "#5f7388",
  plant: "#4f9a3a",
  junk: "#8d7b6a",
  tone: "#3b82c4",
  game_character: "#d0679a",
  birthday_party: "#d0679a",
  item: "#2f7fd8",
  fixture: "#2e9d6a",
  material: "#b08a12",
  music_record: "#344bb8",
};
export const UNKNOWN_COLOUR = "#555555";

export function kindColour(kind: string): string {
  return KIND_COLOURS[kind] ?? UNKNOWN_COLOUR;
}

/** Radius that labels and other labels must keep clear of, per emphasis. */
export function markerRadius(emphasis: Emphasis, scale = 1): number {
  const r = emphasis === "super" ? 30 : emphasis === "common" ? 8 : 19;
  return r * scale;
}

export interface LabelStyle {
  fontSize: number;
  bold: boolean;
  text: string;
  fill: string;
  fillOpacity: number;
  stroke: string;
  strokeWidth: number;
}

/** Label text at the sizes a phone reads (text-sizes.ts), times `scale` (the overview's panels). */
export function labelStyle(emphasis: Emphasis, scale = 1): LabelStyle {
  const size = (px: number) => Math.round(px * scale);
  switch (emphasis) {
    case "super":
      return { fontSize: size(TEXT_PX.superLabel), bold: true, text: "#ffffff", fill: SUPER_COLOUR, fillOpacity: 1, stroke: SUPER_GLOW, strokeWidth: 4 };
    case "rare":
    case "record":
      return { fontSize: size(TEXT_PX.rareLabel), bold: true, text: RARE_COLOUR, fill: "#ffffff", fillOpacity: 1, stroke: RARE_COLOUR, strokeWidth: 3.5 };
    case "common":
      return { fontSize: size(TEXT_PX.commonLabel), bold: false, text: "#2d2d2d", fill: "#ffffff", fillOpacity: 0.82, stroke: "#b9b9b9", strokeWidth: 1 };
  }
}

/** Drop marker at (x, y): glowing halo for super, a violet diamond for rare, a kind-coloured dot otherwise. */
export function dropMarker(x: number, y: number, emphasis: Emphasis, kind: string, faded: boolean, scale = 1): string {
  const cx = n(x);
  const cy = n(y);
  const opacity = faded ? ` opacity="0.35"` : "";
  const s = (v: number) => n(v * scale);
  if (emphasis === "super") {
    return [
      `<g class="drop-super"${opacity}>`,
      `<circle cx="${cx}" cy="${cy}" r="${s(30)}" fill="${SUPER_GLOW}" fill-opacity="0.28"/>`,
      `<circle cx="${cx}" cy="${cy}" r="${s(22)}" fill="${SUPER_GLOW}" fill-opacity="0.45" stroke="${SUPER_GLOW}" stroke-width="${s(4)}"/>`,
      `<circle cx="${cx}" cy="${cy}" r="${s(12)}" fill="${SUPER_COLOUR}" stroke="#ffffff" stroke-width="${s(3)}"/>`,
      `</g>`,
    ].join("");
  }
  if (emphasis === "rare" || emphasis === "record") {
    const d = 12 * scale;
    return [
      `<g class="drop-${emphasis}"${opacity}>`,
      `<circle cx="${cx}" cy="${cy}" r="${s(19)}" fill="none" stroke="${RARE_COLOUR}" stroke-width="${s(3)}" stroke-opacity="0.55"/>`,
      `<path d="M${n(x)} ${n(y - d)}L${n(x + d)} ${n(y)}L${n(x)} ${n(y + d)}L${n(x - d)} ${n(y)}Z" fill="${RARE_COLOUR}" stroke="#ffffff" stroke-width="${s(2.5)}"/>`,
      `</g>`,
    ].join("");
  }
  const dash = kind === "unknown" ? ` stroke-dasharray="2 2"` : "";
  return `<circle class="drop-common" cx="${cx}" cy="${cy}" r="${s(7)}" fill="${kindColour(kind)}" stroke="#ffffff" stroke-width="${s(2)}"${dash}${opacity}/>`;
}

/** Small muted harvest-point shapes: triangle tree, pentagon rock, ring plant, square other. */
export function fixtureMarker(x: number, y: number, kind: FixtureKind, faded: boolean, scale = 1): string {
  const o = faded ? 0.25 : 0.7;
  const r = 8 * scale;
  switch (kind) {
    case "tree":
      return `<path class="fx-tree" d="M${n(x)} ${n(y - r)}L${n(x + r * 0.87)} ${n(y + r * 0.6)}L${n(x - r * 0.87)} ${n(y + r * 0.6)}Z" fill="#6f8f5f" opacity="${o}"/>`;
    case "rock": {
      const pts = [0, 1, 2, 3, 4].map((i) => {
        const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
        return `${n(x + r * 0.85 * Math.cos(a))},${n(y + r * 0.85 * Math.sin(a))}`;
      });
      return `<polygon class="fx-rock" points="${pts.join(" ")}" fill="#8f949c" opacity="${o}"/>`;
    }
    case "plant":
      return `<circle class="fx-plant" cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.6)}" fill="none" stroke="#6aa05a" stroke-width="${n(2.5 * scale)}" opacity="${o}"/>`;
    case "other":
      return `<rect class="fx-other" x="${n(x - r * 0.6)}" y="${n(y - r * 0.6)}" width="${n(r * 1.2)}" height="${n(r * 1.2)}" fill="#a8916f" opacity="${o}"/>`;
  }
}

/** An icon from the asset pack, centred on (x, y), used instead of a vector marker. */
export function iconMarker(x: number, y: number, dataUri: string, size: number, faded: boolean): string {
  const opacity = faded ? ` opacity="0.35"` : "";
  return `<image x="${n(x - size / 2)}" y="${n(y - size / 2)}" width="${n(size)}" height="${n(size)}" xlink:href="${dataUri}"${opacity}/>`;
}
