/** Vector markers: harvest points by kind, drops by emphasis, and the label styles that go with them. */
import type { FixtureKind } from "./catalog.ts";
import type { Emphasis } from "./resources.ts";
import { KIND_MARK_RADIUS, kindMarkSvg } from "./kind-marks.ts";
import { n } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

export const SUPER_COLOUR = "#e6007e";
export const SUPER_GLOW = "#ffd400";
export const RARE_COLOUR = "#6d28d9";

/** Radius that labels and other labels must keep clear of, per emphasis. */
export function markerRadius(emphasis: Emphasis, scale = 1): number {
  const r = emphasis === "super" ? 30 : emphasis === "common" ? KIND_MARK_RADIUS + 1 : 19;
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

/** Drop marker at (x, y): glowing halo for super, a violet diamond for rare, the kind's mark otherwise (kind-marks.ts). */
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
  return kindMarkSvg(x, y, kind, KIND_MARK_RADIUS * scale, faded);
}

/**
 * Radius of a harvest-point shape at scale 1: twice a drop's mark, since every real drop lies on its harvest point
 * and the shape must show around the marks drawn over it.
 */
export const FIXTURE_RADIUS = 19;

/** Pale harvest-point shapes drawn behind the drops: triangle tree, pentagon rock, ring plant, square other, a magenta-edged star for a birthday party's. */
export function fixtureMarker(x: number, y: number, kind: FixtureKind, faded: boolean, scale = 1): string {
  const o = faded ? 0.25 : 0.75;
  const r = FIXTURE_RADIUS * scale;
  switch (kind) {
    case "tree":
      return `<path class="fx-tree" d="M${n(x)} ${n(y - r * 1.1)}L${n(x + r * 1.05)} ${n(y + r * 0.75)}L${n(x - r * 1.05)} ${n(y + r * 0.75)}Z" fill="#b9d3a8" stroke="#6f8f5f" stroke-width="${n(2 * scale)}" opacity="${o}"/>`;
    case "rock": {
      const pts = [0, 1, 2, 3, 4].map((i) => {
        const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
        return `${n(x + r * Math.cos(a))},${n(y + r * Math.sin(a))}`;
      });
      return `<polygon class="fx-rock" points="${pts.join(" ")}" fill="#c9ccd2" stroke="#7d828a" stroke-width="${n(2 * scale)}" opacity="${o}"/>`;
    }
    case "plant":
      return `<circle class="fx-plant" cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.85)}" fill="#d5ebc9" stroke="#6aa05a" stroke-width="${n(3.5 * scale)}" opacity="${o}"/>`;
    case "party": {
      const pts = Array.from({ length: 10 }, (_, i) => {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 === 0 ? r * 1.15 : r * 0.55;
        return `${n(x + rr * Math.cos(a))},${n(y + rr * Math.sin(a))}`;
      });
      return `<polygon class="fx-party" points="${pts.join(" ")}" fill="#f9d3e7" stroke="${SUPER_COLOUR}" stroke-width="${n(2.5 * scale)}" opacity="${faded ? 0.3 : 0.9}"/>`;
    }
    case "other":
      return `<rect class="fx-other" x="${n(x - r * 0.8)}" y="${n(y - r * 0.8)}" width="${n(r * 1.6)}" height="${n(r * 1.6)}" rx="${n(3 * scale)}" fill="#e3d6c2" stroke="#a8916f" stroke-width="${n(2 * scale)}" opacity="${o}"/>`;
  }
}

/** An icon from the asset pack, centred on (x, y), used instead of a vector marker. */
export function iconMarker(x: number, y: number, dataUri: string, size: number, faded: boolean): string {
  const opacity = faded ? ` opacity="0.35"` : "";
  return `<image x="${n(x - size / 2)}" y="${n(y - size / 2)}" width="${n(size)}" height="${n(size)}" xlink:href="${dataUri}"${opacity}/>`;
}
