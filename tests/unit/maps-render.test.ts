import { describe, expect, test } from "bun:test";
import { renderAsync } from "@resvg/resvg-js";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { allCatalogNames } from "../../src/maps/catalog.ts";
import { subsetCharacters } from "../../src/maps/font-coverage.ts";
import { allUiText } from "../../src/maps/i18n.ts";
import { buildOverviewSvg, buildSiteSvg, describeSave, formatRareText, generateOutputs, summaryJson } from "../../src/maps/index.ts";
import { MAP_MAX_WIDTH_PX, MAP_MIN_TEXT_PX } from "../../src/maps/limits.ts";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { allMusicTitles } from "../../src/maps/music-titles.ts";
import { fontFiles, renderPng, resvgOptions } from "../../src/maps/render.ts";
import { outlineText } from "../../src/maps/text-outlines.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Walks the chunks, checks IHDR, inflates the IDAT stream and checks its size: a full structural decode. */
function decodePng(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual(SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      expect(data[8]).toBe(8); // bit depth
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : data[9] === 4 ? 2 : 1;
    }
    if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(height * (1 + width * channels));
  return { width, height };
}

function svgSize(svg: string): { width: number; height: number } {
  const m = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg)!;
  return { width: Number(m[1]), height: Number(m[2]) };
}

const ctx = {
  playerId: "7412589630147258963",
  capturedAt: new Date("2025-03-01T00:30:00Z"),
  locale: "zh-Hans" as const,
  showHarvested: false,
  assetsDir: null,
  timeZone: "Asia/Shanghai",
};

describe("rendering", () => {
  test("generateOutputs writes every site, the overview, summary.json and the rare text; PNGs decode", async () => {
    const s = save([site(8, [material(24, 0, 0)]), site(5, [material(12, 0, 0), drop("mysekai_music_record", 3, 2, 2)])]);
    const out = await generateOutputs(s, ctx);
    expect(out.files.map((f) => f.name)).toEqual(["site_5.png", "site_8.png", "overview.png", "summary.json", "rare_resources.txt"]);
    // The layouts are wider than a phone: scaled to MAP_MAX_WIDTH_PX, aspect kept.
    const site5 = decodePng(out.files[0]!.bytes);
    const site5Svg = svgSize(buildSiteSvg(out.outputs, 5));
    expect(site5Svg.width).toBe(1320);
    expect(site5).toEqual({ width: MAP_MAX_WIDTH_PX, height: Math.round((site5Svg.height * MAP_MAX_WIDTH_PX) / 1320) });
    const overview = decodePng(out.files[2]!.bytes);
    expect(overview.width).toBe(MAP_MAX_WIDTH_PX);
    const summary = JSON.parse(new TextDecoder().decode(out.files[3]!.bytes));
    expect(summary).toEqual(JSON.parse(JSON.stringify(summaryJson(out.outputs))));
    const rareText = new TextDecoder().decode(out.files[4]!.bytes);
    expect(rareText).toBe(formatRareText(out.outputs));
    expect(rareText).toContain("初始空地\n  ★ 钻石 ×1\n");
  });

  test("an empty save still renders an overview", async () => {
    const out = await generateOutputs({ ...save([]), hasHarvestMaps: false }, ctx);
    expect(out.files.map((f) => f.name)).toEqual(["overview.png", "summary.json", "rare_resources.txt"]);
    expect(decodePng(out.files[0]!.bytes).width).toBeGreaterThan(0);
  });

  test("renderPng scales a wider SVG down to maxWidth and leaves a narrower one as it is", async () => {
    const svg = (w: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="100"><rect width="${w}" height="100" fill="red"/></svg>`;
    expect(decodePng(await renderPng(svg(200), { maxWidth: 100 }))).toEqual({ width: 100, height: 50 });
    expect(decodePng(await renderPng(svg(80), { maxWidth: 100 }))).toEqual({ width: 80, height: 100 });
    expect(decodePng(await renderPng(svg(200)))).toEqual({ width: 200, height: 100 });
  });

  test("the pixmap resvg hands back uncropped is the whole map, pixel for pixel (see KEEP_WHOLE_PIXMAP)", async () => {
    const outputs = describeSave(makeSampleMySekaiSave({ seed: 1 }), ctx);
    const site = outlineText(buildSiteSvg(outputs, 5));
    const narrow = `<svg xmlns="http://www.w3.org/2000/svg" width="333" height="101"><circle cx="160" cy="50" r="40" fill="#e6007e"/></svg>`;
    for (const [svg, zoom, width] of [[site, MAP_MAX_WIDTH_PX / svgSize(site).width, MAP_MAX_WIDTH_PX], [narrow, 1, 333]] as const) {
      const options = resvgOptions(svg, zoom);
      const [kept, cropped] = await Promise.all([renderAsync(svg, options), renderAsync(svg, { ...options, crop: undefined })]);
      expect({ width: kept.width, height: kept.height }).toEqual({ width, height: cropped.height });
      expect(kept.pixels.equals(cropped.pixels)).toBe(true);
    }
  });

  test("at phone width, no text on any map of a busy save is smaller than MAP_MIN_TEXT_PX", () => {
    const sample = makeSampleMySekaiSave({ seed: 1 });
    for (const locale of ["zh-Hans", "ja", "en"] as const) {
      const outputs = describeSave(sample, { ...ctx, locale });
      const svgs = [...outputs.sites.map((s) => buildSiteSvg(outputs, s.siteId)), buildOverviewSvg(outputs)];
      for (const svg of svgs) {
        const scale = Math.min(1, MAP_MAX_WIDTH_PX / svgSize(svg).width);
        const sizes = [...svg.matchAll(/<text [^>]*font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
        expect(sizes.length).toBeGreaterThan(0);
        expect(Math.min(...sizes) * scale).toBeGreaterThanOrEqual(MAP_MIN_TEXT_PX);
      }
    }
  });
});

describe("bundled font", () => {
  async function glyphPixels(ch: string): Promise<Buffer> {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" font-family="Noto Sans CJK SC"><text x="2" y="34" font-size="34">${ch}</text></svg>`;
    const image = await renderAsync(svg, { font: { fontFiles: fontFiles(), loadSystemFonts: false }, background: "#fff" });
    return image.pixels;
  }

  test("draws CJK glyphs (distinct glyphs differ; missing ones would all be the same .notdef box)", async () => {
    const [a, b, kana, missing1, missing2] = await Promise.all(["钻", "石", "ダ", "龘", "齉"].map(glyphPixels));
    expect(a!.equals(b!)).toBe(false);
    expect(a!.equals(kana!)).toBe(false);
    expect(missing1!.equals(missing2!)).toBe(true); // unknown characters do not crash
    expect(a!.equals(missing1!)).toBe(false);
  });

  test("covers every catalogue, UI and song-title character in both weights (else rerun scripts/subset-font.ts)", () => {
    const titleChars = [...allMusicTitles().join("")];
    expect(titleChars).toContain("将"); // a cn-only title character (record 3: テオ / Teo / 将手)
    const required = new Set([...subsetCharacters(), ...allUiText(), ...allCatalogNames().join(""), ...titleChars]);
    for (const file of fontFiles()) {
      const cmap = readCmap(readFileSync(file));
      const missing = [...required].filter((ch) => !cmap.has(ch.codePointAt(0)!));
      expect({ file, missing }).toEqual({ file, missing: [] });
    }
  });
});

/** Code points of an OpenType font's format 4 / 12 cmap subtables. */
function readCmap(font: Buffer): Set<number> {
  const numTables = font.readUInt16BE(4);
  let cmapOffset = -1;
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    if (font.toString("latin1", rec, rec + 4) === "cmap") cmapOffset = font.readUInt32BE(rec + 8);
  }
  const codes = new Set<number>();
  const subtables = font.readUInt16BE(cmapOffset + 2);
  for (let i = 0; i < subtables; i++) {
    const sub = cmapOffset + font.readUInt32BE(cmapOffset + 4 + i * 8 + 4);
    const format = font.readUInt16BE(sub);
    if (format === 4) {
      const segX2 = font.readUInt16BE(sub + 6);
      for (let s = 0; s < segX2; s += 2) {
        const end = font.readUInt16BE(sub + 14 + s);
        const start = font.readUInt16BE(sub + 16 + segX2 + s);
        for (let c = start; c <= end && c !== 0xffff; c++) codes.add(c);
      }
    } else if (format === 12) {
      const groups = font.readUInt32BE(sub + 12);
      for (let g = 0; g < groups; g++) {
        const start = font.readUInt32BE(sub + 16 + g * 12);
        const end = font.readUInt32BE(sub + 20 + g * 12);
        for (let c = start; c <= end; c++) codes.add(c);
      }
    }
  }
  return codes;
}
