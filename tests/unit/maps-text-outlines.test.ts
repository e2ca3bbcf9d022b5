import { describe, expect, test } from "bun:test";
import { heapSize } from "bun:jsc";
import { renderAsync } from "@resvg/resvg-js";
import { join } from "node:path";
import { buildOverviewSvg, buildSiteSvg, describeSave } from "../../src/maps/index.ts";
import { fontFiles } from "../../src/maps/font-files.ts";
import { FONT_FAMILY, text } from "../../src/maps/svg-util.ts";
import { outlineText } from "../../src/maps/text-outlines.ts";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";

const FONTS = { fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY };

async function pixels(svg: string): Promise<Uint8Array> {
  return (await renderAsync(svg, { font: FONTS, background: "#ffffff", logLevel: "off" })).pixels;
}

/** How many bytes differ, and by how much at most, between resvg's own text and our outlines of it. */
async function difference(svg: string): Promise<{ bytes: number; max: number }> {
  const [own, outlined] = await Promise.all([pixels(svg), pixels(outlineText(svg))]);
  let bytes = 0;
  let max = 0;
  for (let i = 0; i < own.length; i++) {
    const d = Math.abs(own[i]! - outlined[i]!);
    if (d > 0) bytes++;
    max = Math.max(max, d);
  }
  return { bytes, max };
}

const one = (label: string, attrs: Parameters<typeof text>[3]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="48" font-family="${FONT_FAMILY}">${text(180, 34, label, attrs)}</svg>`;

describe("text drawn as cached glyph outlines", () => {
  const cases: [string, Parameters<typeof text>[3]][] = [
    ["蓬松的棉花 ×1", { size: 15, fill: "#2d2d2d" }],
    ["AVA To Wa", { size: 22, fill: "#ffffff", bold: true, anchor: "end" }],
    ["★ 夕桐 ×6", { size: 22, fill: "#e4007f", bold: true, anchor: "middle" }],
    ["花瓣 ×2", { size: 15, fill: "#2d2d2d", opacity: 0.45 }],
    ["  spaces\tand\nbreaks  ", { size: 18, fill: "#000", anchor: "middle" }],
    ["a < b & \"c\" 'd'", { size: 18, fill: "#123456" }],
    ["한글 𝒳 not in the font", { size: 18, fill: "#000" }],
  ];
  for (const [label, attrs] of cases) {
    test(`looks like resvg's own text: ${JSON.stringify(label)}`, async () => {
      const svg = one(label, attrs);
      expect(outlineText(svg)).not.toContain("<text");
      // Same glyphs, advances and kerning: at most a few anti-aliased edge pixels differ, slightly.
      const { bytes, max } = await difference(svg);
      expect(bytes).toBeLessThan(40);
      expect(max).toBeLessThan(32);
    });
  }

  test("every text of a save's maps is outlined, and the maps render the same", async () => {
    const save = makeSampleMySekaiSave({ seed: 1 });
    const outputs = describeSave(save, { playerId: "7412589630147258963", capturedAt: new Date(0), locale: "ja", showHarvested: true, timeZone: "UTC" });
    const svgs = [buildSiteSvg(outputs, outputs.sites[0]!.siteId, null), buildOverviewSvg(outputs, null)];
    for (const svg of svgs) {
      expect(svg).toContain("<text");
      expect(outlineText(svg)).not.toContain("<text");
      const { bytes } = await difference(svg);
      expect(bytes).toBeLessThan(200); // of ~8 million
    }
  });

  test("the layout cache keeps its labels, not the SVGs they were cut from", () => {
    const padding = `<!--${"x".repeat(1 << 20)}-->`;
    outlineText(one("warm-up", { size: 15, fill: "#000" }));
    Bun.gc(true);
    const before = heapSize();
    // 40 maps of 1 MB, each with a label never seen before (long enough for JSC to share, not copy, its characters).
    for (let i = 0; i < 40; i++) outlineText(`<svg xmlns="http://www.w3.org/2000/svg">${padding}${text(10, 20, `a label long enough to be shared ${i}`, { size: 15, fill: "#000" })}</svg>`);
    Bun.gc(true);
    expect(heapSize() - before).toBeLessThan(8 << 20);
  });

  test("the fonts and the outlines of a few saves' maps keep the heap the worker marks after every save small", () => {
    // A process of its own: the fonts are parsed once per process, and this file's tests have loaded them already.
    const probe = `
      import { heapStats } from "bun:jsc";
      import { buildOverviewSvg, buildSiteSvg, describeSave } from "./src/maps/index.ts";
      import { outlineText } from "./src/maps/text-outlines.ts";
      import { makeSampleMySekaiSave } from "./src/samples/index.ts";
      const svgs = [1, 2, 3].flatMap((seed) => {
        const outputs = describeSave(makeSampleMySekaiSave({ seed }), { playerId: "7412589630147258963", capturedAt: new Date(0), locale: "zh-Hans", showHarvested: false, timeZone: "UTC" });
        return [buildOverviewSvg(outputs, null), ...outputs.sites.map((site) => buildSiteSvg(outputs, site.siteId, null))];
      });
      Bun.gc(true);
      const before = heapStats().objectCount;
      const outlined = svgs.map(outlineText);
      svgs.length = 0;
      outlined.length = 0;
      Bun.gc(true);
      console.log(heapStats().objectCount - before);
    `;
    const run = Bun.spawnSync([process.execPath, "-e", probe], { cwd: join(import.meta.dir, "..", "..") });
    expect(run.exitCode).toBe(0);
    // ~47,000 cells; ~69,000 with every glyph of both fonts parsed up front, ~76,000 with outlines kept as ropes.
    expect(Number(run.stdout.toString())).toBeLessThan(60_000);
  });

  test("a text element not written by text() is left for resvg", () => {
    const foreign = `<text x="1" y="2" font-size="3" fill="red" letter-spacing="4">odd</text>`;
    expect(outlineText(foreign)).toBe(foreign);
  });

  test("a text with nothing to draw disappears", () => {
    expect(outlineText(text(1, 2, "   ", { size: 12, fill: "#000" }))).toBe("");
  });
});
