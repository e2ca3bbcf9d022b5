/**
 * Maps of one save: every site_<id>.png, overview.png, summary.json and rare_resources.txt, all drawn from
 * the save's outputs model. Pure apart from reading the optional asset pack: typed save in, bytes out.
 */
import type { MySekaiSave } from "../save/model.ts";
import { loadAssetPack } from "./assets.ts";
import { MAP_MAX_WIDTH_PX } from "./limits.ts";
import { formatRareText } from "./rare-text.ts";
import { renderPng } from "./render.ts";
import { describeSave, mapFileNames, type OutputsContext, type SaveOutputs } from "./save-outputs.ts";
import { summaryFile } from "./summary.ts";
import { buildOverviewSvg } from "./svg-overview.ts";
import { buildSiteSvg, type SiteDrawing } from "./svg-site.ts";

export { buildSiteSvg, type SiteDrawing } from "./svg-site.ts";
export { buildOverviewSvg } from "./svg-overview.ts";
export { summaryFile, summaryJson, type SummaryJson } from "./summary.ts";
export { formatRareText, rareText } from "./rare-text.ts";
export { describeSave, isHarvestState, mapFileNames, storedOutputs, type OutputsContext, type SaveOutputs } from "./save-outputs.ts";
export { renderPng } from "./render.ts";
export { loadAssetPack } from "./assets.ts";
export type { Locale } from "./catalog.ts";

export interface GenerateContext extends OutputsContext {
  /** Folder of the optional asset pack (sites/<id>.png, icons/<type>_<id>.png), or null. */
  assetsDir: string | null;
  /** MAP_COMMON_LABELS: "none" (default) labels finds and new songs only, "all" every drop. */
  commonLabels?: SiteDrawing["commonLabels"];
  /** MAP_MAX_WIDTH_PX (at most the default cap). */
  maxWidthPx?: number;
}

export interface OutputFile {
  name: string;
  bytes: Uint8Array;
}

/** A file whose bytes may still be drawing: named at once, so its write can be set up before it is done. */
export interface PendingFile {
  name: string;
  bytes: Uint8Array | Promise<Uint8Array>;
}

/** The archived files and the model they were drawn from. */
export interface GeneratedOutputs {
  files: OutputFile[];
  outputs: SaveOutputs;
}

/**
 * Each render leaves a native pixmap (~5 MB) that is freed only when the GC collects its small JS wrapper,
 * and the GC does not count native memory: a caller drawing save after save runs a full collection between
 * saves (~7 ms; the pipeline worker's collectWorkerHeap, shortly after handing its result over) rather than hold
 * several saves' worth.
 */
export async function generateOutputs(save: MySekaiSave, ctx: GenerateContext): Promise<GeneratedOutputs> {
  const { files, outputs } = await startOutputs(save, ctx);
  const drawn = await Promise.all(files.map(async (file) => ({ name: file.name, bytes: await file.bytes })));
  return { files: drawn, outputs };
}

/**
 * The same files, each map's bytes a promise that settles when that map is drawn and encoded: the pipeline writes
 * each one as it comes (its fsync overlaps the renders still running) instead of all of them after the last.
 */
export async function startOutputs(save: MySekaiSave, ctx: GenerateContext): Promise<{ files: PendingFile[]; outputs: SaveOutputs }> {
  const assets = ctx.assetsDir ? await loadAssetPack(ctx.assetsDir, save) : null;
  const outputs = describeSave(save, ctx);
  const render = (svg: string) => {
    const png = renderPng(svg, { maxWidth: Math.min(ctx.maxWidthPx ?? MAP_MAX_WIDTH_PX, MAP_MAX_WIDTH_PX) });
    // Whoever awaits it sees a failure; a render started before a later build threw must not go unhandled.
    png.catch(() => {});
    return png;
  };
  // resvg's async renders run in parallel on the libuv pool (one per core). The overview, the largest, starts
  // first (started last, it would run alone at the end while the other core waits), and before the site maps
  // are built: each render is handed over as soon as its SVG is, while this thread builds the next.
  const overviewPng = render(buildOverviewSvg(outputs, assets));
  const drawing = { commonLabels: ctx.commonLabels ?? "none" } as const;
  const sitePngs = outputs.sites.map((site) => render(buildSiteSvg(outputs, site.siteId, assets, drawing)));
  const pngs = [...sitePngs, overviewPng];
  const files: PendingFile[] = [
    ...mapFileNames(outputs).map((name, i) => ({ name, bytes: pngs[i]! })),
    summaryFile(outputs),
    { name: "rare_resources.txt", bytes: new TextEncoder().encode(formatRareText(outputs)) },
  ];
  return { files, outputs };
}
