/**
 * One site's month of rare spawns as an SVG in the maps' projection (src/maps/geometry.ts): a mark per spot
 * coloured by its best find (super-rare, rare), the number of finds on it, and the dates of the newest ones.
 */
import { siteProjection } from "../maps/geometry.ts";
import { RARE_COLOUR, SUPER_COLOUR, SUPER_GLOW } from "../maps/svg-markers.ts";
import { escapeXml, FONT_FAMILY, n } from "../maps/svg-util.ts";
import type { SpawnSpot } from "./collect.ts";

const TITLE_HEIGHT = 64;
/** Dates written beside a spot; older ones are counted. */
const DATES_SHOWN = 3;

export interface SpawnSvgText {
  siteName: string;
  /** "Rare finds, last 30 days: 12 on 5 spots". */
  subtitle: string;
  /** "11-03" in the player's time zone. */
  date: (at: number) => string;
}

export function buildSpawnSvg(siteId: number, spots: readonly SpawnSpot[], text: SpawnSvgText): string {
  const proj = siteProjection(siteId, spots.map((s) => ({ positionX: s.x, positionZ: s.z })));
  const width = Math.round(proj.width);
  const height = Math.round(proj.height) + TITLE_HEIGHT;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">`,
    `<rect width="${width}" height="${height}" fill="#f4f1ea"/>`,
    `<rect y="0" width="${width}" height="${TITLE_HEIGHT}" fill="#24304a"/>`,
    `<text x="20" y="30" font-size="24" font-weight="700" fill="#ffffff">${escapeXml(text.siteName)}</text>`,
    `<text x="20" y="54" font-size="17" fill="#d6dcea">${escapeXml(text.subtitle)}</text>`,
    `<g transform="translate(0 ${TITLE_HEIGHT})">`,
  ];
  // Fewest finds first, so the busiest spots are drawn on top.
  for (const spot of [...spots].reverse()) {
    const { x, y } = proj.project(spot.x, spot.z);
    const superRare = spot.finds.some((f) => f.tier === "super");
    const r = Math.min(22, 11 + 2 * spot.finds.length);
    out.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${superRare ? SUPER_COLOUR : RARE_COLOUR}" stroke="${superRare ? SUPER_GLOW : "#ffffff"}" stroke-width="3"/>`);
    out.push(`<text x="${n(x)}" y="${n(y + 6)}" font-size="17" font-weight="700" fill="#ffffff" text-anchor="middle">${spot.finds.length}</text>`);
    const days = [...new Set(spot.finds.map((f) => text.date(f.at)))];
    const label = days.slice(0, DATES_SHOWN).join(" ") + (days.length > DATES_SHOWN ? ` +${days.length - DATES_SHOWN}` : "");
    const lx = x + r + 6 > width - 140 ? x - r - 6 : x + r + 6;
    const anchor = lx < x ? "end" : "start";
    out.push(`<text x="${n(lx)}" y="${n(y + 5)}" font-size="15" fill="#1d2330" stroke="#f4f1ea" stroke-width="4" paint-order="stroke" text-anchor="${anchor}">${escapeXml(label)}</text>`);
  }
  out.push("</g></svg>");
  return out.join("");
}
