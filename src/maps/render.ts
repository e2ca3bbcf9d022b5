/**
 * SVG → PNG with resvg's async render (runs off the event loop on the libuv pool). The `Resvg`
 * class is not used: it keeps ~5 MB per instance alive. Fonts are the bundled Noto Sans CJK SC
 * subsets only (no system fonts): fast, identical output on every machine. Text reaches resvg as outlines
 * (text-outlines.ts); only a `<text>` left over needs the fonts. The white background makes
 * every image opaque, which the PNG encoder relies on.
 */
import { renderAsync, type ResvgRenderOptions } from "@resvg/resvg-js";
import { availableParallelism } from "node:os";
import { fontFiles } from "./font-files.ts";
import { encodeOpaquePng } from "./png.ts";
import { FONT_FAMILY } from "./svg-util.ts";
import { outlineText } from "./text-outlines.ts";

export { fontFiles } from "./font-files.ts";

export interface RenderOptions {
  /** Wider SVGs are scaled down to this many pixels wide (aspect kept); narrower ones keep their size. */
  maxWidth?: number;
}

/** The width attribute of the root `<svg>` (the one svgDocument writes), or null. */
function svgWidth(svg: string): number | null {
  const width = Number(/^<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg)?.[1]);
  return width > 0 ? width : null;
}

function zoomFor(svg: string, maxWidth: number | undefined): number {
  const width = svgWidth(svg);
  return maxWidth && width && width > maxWidth ? maxWidth / width : 1;
}

/**
 * At most one render per core at a time: more only adds pixmaps in memory (each ~5 MB at 1000 px plus layers)
 * without finishing sooner.
 */
const MAX_CONCURRENT = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function withRenderSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const withFonts = () => ({ fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY });

/**
 * resvg-js ends every render by copying the whole pixmap into a cropped one (its crop defaults to the full image):
 * one more map-sized buffer (~5 MB) allocated, written and freed per render. With memory given back at once
 * (launch-env.ts) its pages are faulted in anew every time: ~25 ms of CPU a save. A crop rectangle without area
 * is skipped by resvg-js 2.6, which then returns the rendered pixmap itself; maps-render.test.ts checks that the
 * image stays the same, so an upgrade that treats it otherwise fails there.
 */
const KEEP_WHOLE_PIXMAP = { left: 0, top: 0, right: 0, bottom: 0 };

/** What resvg is told for one map: `svg` is the outlined text, `zoom` from the layout's width. */
export function resvgOptions(svg: string, zoom: number): ResvgRenderOptions {
  return {
    // With every text outlined, resvg needs no fonts (loading them costs ~1 ms a render).
    font: svg.includes("<text") ? withFonts() : { loadSystemFonts: false },
    fitTo: { mode: "zoom", value: zoom },
    background: "#ffffff",
    crop: KEEP_WHOLE_PIXMAP,
    logLevel: "off",
  };
}

export function renderPng(svg: string, opts: RenderOptions = {}): Promise<Uint8Array> {
  return withRenderSlot(async () => {
    const outlined = outlineText(svg);
    const image = await renderAsync(outlined, resvgOptions(outlined, zoomFor(svg, opts.maxWidth)));
    // Encoding runs on the calling thread; our encoder costs ~¼ of asPng()'s CPU (see png.ts).
    const pixels = image.pixels; // a fresh ~5 MB native copy on every read
    const png = encodeOpaquePng(pixels, image.width, image.height);
    // Detaching frees the copy now; left to the GC, which does not count native memory, copies pile up.
    // Only a buffer the view owns whole is detached (never a pool other views share).
    if (pixels.byteOffset === 0 && pixels.byteLength === pixels.buffer.byteLength) (pixels.buffer as ArrayBuffer).transfer(0);
    return png;
  });
}
