/**
 * Maps of one save: every site_<id>.png, overview.png, summary.json and rare_resources.txt.
 * Pure apart from reading the optional asset pack: typed save in, bytes out.
 */
import type { MySekaiSave } from "../save/model.ts";
import { loadAssetPack } from "./assets.ts";
import type { Locale } from "./catalog.ts";
import { formatRareText } from "./rare-text.ts";
import { renderPng } from "./render.ts";
import { buildSummary, type MapSummary } from "./summary.ts";
import { buildOverviewSvg } from "./svg-overview.ts";
import { sitePositions, siteSvgFromView, siteViewsForMaps, type MapOptions } from "./svg-site.ts";

export { buildSiteSvg, type MapOptions } from "./svg-site.ts";
export { buildOverviewSvg } from "./svg-overview.ts";
export { buildSummary, type MapSummary } from "./summary.ts";
export { formatRareText } from "./rare-text.ts";
export { renderPng } from "./render.ts";
export { loadAssetPack } from "./assets.ts";
export type { Locale } from "./catalog.ts";

export interface OutputContext {
  playerId: string;
  capturedAt: Date;
  locale: Locale;
  showHarvested: boolean;
  /** Folder of the optional asset pack (sites/<id>.png, icons/<type>_<id>.png), or null. */
  assetsDir: string | null;
  /** IANA zone for times drawn on the maps and in the rare text; default UTC. */
  timeZone?: string;
}

export interface OutputFile {
  name: string;
  bytes: Uint8Array;
}

export interface Outputs {
  files: OutputFile[];
  summary: MapSummary;
  rareText: string;
}

export async function generateOutputs(save: MySekaiSave, ctx: OutputContext): Promise<Outputs> {
  const assets = ctx.assetsDir ? await loadAssetPack(ctx.assetsDir, save) : null;
  const opts: MapOptions = {
    playerId: ctx.playerId,
    capturedAt: ctx.capturedAt,
    locale: ctx.locale,
    showHarvested: ctx.showHarvested,
    timeZone: ctx.timeZone,
    assets,
  };
  const siteSvgs = siteViewsForMaps(save, opts).map((view) => ({
    name: `site_${view.siteId}.png`,
    svg: siteSvgFromView(view, opts, sitePositions(save, view.siteId)),
  }));
  const overviewSvg = buildOverviewSvg(save, opts);
  // resvg's async renders run in parallel on the libuv pool (one per core).
  const pngs = await Promise.all([...siteSvgs.map((s) => renderPng(s.svg)), renderPng(overviewSvg)]);

  const summary = buildSummary(save, ctx);
  const rareText = formatRareText(summary, { locale: ctx.locale, timeZone: ctx.timeZone });
  const encoder = new TextEncoder();
  const files: OutputFile[] = [
    ...siteSvgs.map((s, i) => ({ name: s.name, bytes: pngs[i]! })),
    { name: "overview.png", bytes: pngs[siteSvgs.length]! },
    { name: "summary.json", bytes: encoder.encode(`${JSON.stringify(summary, null, 2)}\n`) },
    { name: "rare_resources.txt", bytes: encoder.encode(rareText) },
  ];
  return { files, summary, rareText };
}
