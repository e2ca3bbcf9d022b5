/** site_<id>.svg: title bar with the rare finds, the map, and a legend of every resource and harvest point on the site. */
import { siteProjection, type SiteProjection } from "./geometry.ts";
import type { SaveOutputs, SiteOutputs } from "./save-outputs.ts";
import { titleBar } from "./svg-header.ts";
import { legend, legendHeight } from "./svg-legend.ts";
import { mapLayer, type AssetImages } from "./svg-map-layer.ts";
import { svgDocument } from "./svg-util.ts";

const MARGIN = 20;

/** The site's catalogue projection, else one fitted to every position on it (the frame's corners). */
export function projectionOf(site: SiteOutputs): SiteProjection {
  const f = site.frame;
  return siteProjection(site.siteId, f ? [{ positionX: f.minX, positionZ: f.minZ }, { positionX: f.maxX, positionZ: f.maxZ }] : []);
}

export function buildSiteSvg(outputs: SaveOutputs, siteId: number, assets: AssetImages | null = null): string {
  const site = outputs.sites.find((s) => s.siteId === siteId);
  if (!site) throw new Error(`site ${siteId} is not in the save`);
  const proj = projectionOf(site);
  const width = proj.width + 2 * MARGIN;
  const title = titleBar(site, width, outputs);
  const mapTop = title.height + MARGIN;
  const legendTop = mapTop + proj.height + 8;
  const height = legendTop + legendHeight(site);
  const body = [
    `<rect width="${width}" height="${height}" fill="#f7f7fa"/>`,
    ...title.svg,
    `<g transform="translate(${MARGIN} ${mapTop})">`,
    mapLayer(site, proj, { locale: outputs.locale, scale: 1, symbolScale: 1, labelScale: 1, labels: "all", assets }),
    `</g>`,
    ...legend(site, legendTop, width, outputs.locale),
  ];
  return svgDocument(width, height, body);
}
