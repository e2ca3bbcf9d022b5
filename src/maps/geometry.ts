/**
 * Site geometry: game positions (positionX, positionZ) → pixels on the cropped site map.
 *
 * Known sites use the catalogue's siteGeometry (the game's own site-map orientation):
 *   px = 960 + offset_x + dir_x * grid * u,  py = 540 + offset_z + dir_z * grid * v,
 *   (u, v) = rev_xz ? (positionZ, positionX) : (positionX, positionZ),
 * on the 1920x1080 site image, then minus crop_bbox left/top. Unknown sites fit their points
 * into a 1280x1080 canvas (x to the right, z upwards).
 */
import { siteGeometryEntry, type SiteGeometryEntry } from "./catalog.ts";

export const SITE_IMAGE_WIDTH = 1920;
export const SITE_IMAGE_HEIGHT = 1080;
export const FALLBACK_MAP_WIDTH = 1280;
export const FALLBACK_MAP_HEIGHT = 1080;
const FALLBACK_MARGIN = 80;
/** Points projected outside the map are pulled this far inside its edge, never lost. */
export const EDGE_INSET = 14;

export interface Point {
  x: number;
  y: number;
}

export interface SiteProjection {
  /** Map area size in pixels (the crop box for known sites). */
  width: number;
  height: number;
  /** Where the full 1920x1080 site image sits relative to the map area (for asset-pack backgrounds); null for fallback. */
  imageOrigin: Point | null;
  /** Raw projection, may fall outside the map area. */
  projectRaw(positionX: number, positionZ: number): Point;
  /** Projection clamped into the map area. */
  project(positionX: number, positionZ: number): Point;
}

function clampInto(p: Point, width: number, height: number): Point {
  return {
    x: Math.min(Math.max(p.x, EDGE_INSET), width - EDGE_INSET),
    y: Math.min(Math.max(p.y, EDGE_INSET), height - EDGE_INSET),
  };
}

export function catalogueProjection(g: SiteGeometryEntry): SiteProjection {
  const [left, top, width, height] = g.crop_bbox;
  const projectRaw = (positionX: number, positionZ: number): Point => {
    const [u, v] = g.rev_xz ? [positionZ, positionX] : [positionX, positionZ];
    return {
      x: SITE_IMAGE_WIDTH / 2 + g.offset_x + g.dir_x * g.grid_size * u - left,
      y: SITE_IMAGE_HEIGHT / 2 + g.offset_z + g.dir_z * g.grid_size * v - top,
    };
  };
  return {
    width,
    height,
    imageOrigin: { x: -left, y: -top },
    projectRaw,
    project: (x, z) => clampInto(projectRaw(x, z), width, height),
  };
}

/** Fit all positions into the fallback canvas with a uniform scale; x to the right, z upwards. */
export function fallbackProjection(positions: readonly { positionX: number; positionZ: number }[]): SiteProjection {
  const width = FALLBACK_MAP_WIDTH;
  const height = FALLBACK_MAP_HEIGHT;
  const xs = positions.map((p) => p.positionX);
  const zs = positions.map((p) => p.positionZ);
  const minX = xs.length ? Math.min(...xs) : 0;
  const maxX = xs.length ? Math.max(...xs) : 0;
  const minZ = zs.length ? Math.min(...zs) : 0;
  const maxZ = zs.length ? Math.max(...zs) : 0;
  const spanX = maxX - minX;
  const spanZ = maxZ - minZ;
  const usableW = width - 2 * FALLBACK_MARGIN;
  const usableH = height - 2 * FALLBACK_MARGIN;
  const scale = Math.min(spanX > 0 ? usableW / spanX : Infinity, spanZ > 0 ? usableH / spanZ : Infinity);
  const s = Number.isFinite(scale) ? scale : 1;
  const centreX = (minX + maxX) / 2;
  const centreZ = (minZ + maxZ) / 2;
  const projectRaw = (positionX: number, positionZ: number): Point => ({
    x: width / 2 + (positionX - centreX) * s,
    y: height / 2 - (positionZ - centreZ) * s,
  });
  return {
    width,
    height,
    imageOrigin: null,
    projectRaw,
    project: (x, z) => clampInto(projectRaw(x, z), width, height),
  };
}

export function siteProjection(
  siteId: number,
  positions: readonly { positionX: number; positionZ: number }[],
): SiteProjection {
  const entry = siteGeometryEntry(siteId);
  return entry ? catalogueProjection(entry) : fallbackProjection(positions);
}
