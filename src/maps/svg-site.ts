/** site_<id>.svg: title bar with the rare finds, the map, labels it had no room for, and a legend of what it shows. */
import { siteProjection, type SiteProjection } from "./geometry.ts";
import { MAP_LIMITS } from "./limits.ts";
import type { MapLayout } from "./map-layout.ts";
import type { SaveOutputs, SiteOutputs } from "./save-outputs.ts";
import { titleBar } from "./svg-header.ts";
import { legend, legendHeight } from "./svg-legend.ts";
import { mapLayer, type AssetImages } from "./svg-map-layer.ts";
import { svgDocument } from "./svg-util.ts";
import { unplacedHeight, unplacedList } from "./svg-unplaced.ts";

const MARGIN = 20;

/** How a site map is drawn (MAP_COMMON_LABELS): "none" labels finds and new songs only, "all" every drop. */
export interface SiteDrawing {
  commonLabels: "none" | "all";
}

export const DEFAULT_DRAWING: SiteDrawing = { commonLabels: "none" };

/** The site's catalogue projection, else one fitted to every position on it (the frame's corners). */
export function projectionOf(site: SiteOutputs): SiteProjection {
  const f = site.frame;
  return siteProjection(site.siteId, f ? [{ positionX: f.minX, positionZ: f.minZ }, { positionX: f.maxX, positionZ: f.maxZ }] : []);
}

function siteOf(outputs: SaveOutputs, siteId: number): SiteOutputs {
  const site = outputs.sites.find((s) => s.siteId === siteId);
  if (!site) throw new Error(`site ${siteId} is not in the save`);
  return site;
}

/** The site's map area: its SVG and the layout it drew (tests check the layout's geometry). */
export function siteMap(outputs: SaveOutputs, siteId: number, assets: AssetImages | null = null, drawing = DEFAULT_DRAWING): { svg: string; layout: MapLayout } {
  const site = siteOf(outputs, siteId);
  const labels = drawing.commonLabels === "all" ? "all" : "highlights";
  return mapLayer(site, projectionOf(site), { locale: outputs.locale, scale: 1, symbolScale: 1, labelScale: 1, labels, labelCap: MAP_LIMITS.labelsPerMap, clusterCounts: true, assets });
}

export function buildSiteSvg(outputs: SaveOutputs, siteId: number, assets: AssetImages | null = null, drawing = DEFAULT_DRAWING): string {
  const site = siteOf(outputs, siteId);
  const proj = projectionOf(site);
  const map = siteMap(outputs, siteId, assets, drawing);
  const width = proj.width + 2 * MARGIN;
  const title = titleBar(site, width, outputs);
  const mapTop = title.height + MARGIN;
  const listTop = mapTop + proj.height + 8;
  const legendTop = listTop + unplacedHeight(map.layout, width, outputs.locale);
  const height = legendTop + legendHeight(site, map.layout);
  const body = [
    `<rect width="${width}" height="${height}" fill="#f7f7fa"/>`,
    ...title.svg,
    `<g transform="translate(${MARGIN} ${mapTop})">`,
    map.svg,
    `</g>`,
    ...unplacedList(map.layout, listTop, width, outputs.locale),
    ...legend(site, map.layout, legendTop, width, outputs.locale),
  ];
  return svgDocument(width, height, body);
}
