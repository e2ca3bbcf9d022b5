import { describe, expect, test } from "bun:test";
import { buildOverviewSvg, buildSiteSvg, describeSave, formatRareText, generateOutputs } from "../../src/maps/index.ts";
import type { MySekaiSave } from "../../src/save/model.ts";
import { MAP_LIMITS } from "../../src/maps/limits.ts";
import { textWidth, truncateToWidth } from "../../src/maps/svg-util.ts";
import { SAVE_LIMITS } from "../../src/save/limits.ts";
import { drop, material, save, saveAtCaps, site } from "../helpers/maps-fixtures.ts";

const opts = { playerId: "7488393821744390161", capturedAt: new Date(Date.UTC(2025, 2, 1)), locale: "en" as const, showHarvested: false };
const model = (s: MySekaiSave) => describeSave(s, opts);
const labels = (svg: string) => svg.match(/<g class="label /g)?.length ?? 0;

describe("a save at the caps", () => {
  const atCaps = saveAtCaps(SAVE_LIMITS);

  test("site maps label the most important spots only, the rest listed up to a cap; every drop keeps its marker", () => {
    const svg = buildSiteSvg(model(atCaps), 5);
    // Super-rare finds on every spot of a packed grid: no free place for most (often any) of their labels.
    expect(labels(svg)).toBeLessThanOrEqual(MAP_LIMITS.labelsPerMap);
    expect(svg.match(/class="label label-super"/g)?.length ?? 0).toBe(labels(svg));
    const listed = /<g class="unplaced">(.*?)<\/g>/s.exec(svg)![1]!.match(/<text /g)!.length;
    expect(listed).toBe(1 + MAP_LIMITS.unplacedEntries + 1); // heading, entries, "+N"
    const withoutCounts = svg.replace(/<g class="cluster-count">.*?<\/g>/gs, ""); // a patch's count shows its kind's mark too
    // The long-typed drops are of a type the catalogue does not know: rare finds, each with its mark.
    const markers = withoutCounts.match(/<g class="drop-(super|rare|record)"|class="drop-common"/g)?.length ?? 0;
    expect(markers).toBe(SAVE_LIMITS.dropsPerSite + MAP_LIMITS.legendEntries - 1);
  });

  test("the legend shows its cap and counts the rest", () => {
    const svg = buildSiteSvg(model(atCaps), 5);
    const distinct = model(atCaps).sites[0]!.totals.length;
    expect(svg).toContain(`>+${distinct - (MAP_LIMITS.legendEntries - 1)}</text>`);
  });

  test("the title bar shows its cap of chips, the rest counted on a last chip", () => {
    const svg = buildSiteSvg(model(atCaps), 5);
    const chips = [...svg.matchAll(/<g class="chip">.*?<text [^>]*>([^<]*)<\/text>/gs)].map((m) => m[1]!);
    const rare = model(atCaps).sites[0]!.totals.filter((t) => t.resource.emphasis !== "common").length;
    expect(chips).toHaveLength(MAP_LIMITS.headerChips);
    expect(chips.at(-1)).toBe(`+${rare - (MAP_LIMITS.headerChips - 1)}`);
  });

  test("overview panels and the rare text are capped too", () => {
    const overview = buildOverviewSvg(model(atCaps));
    expect(labels(overview)).toBeGreaterThan(0);
    expect(labels(overview)).toBeLessThanOrEqual(SAVE_LIMITS.sites * MAP_LIMITS.labelsPerPanel);
    const rare = formatRareText(model(atCaps)).trimEnd().split("\n");
    expect(rare).toHaveLength(2 + MAP_LIMITS.rareLines);
    expect(rare.at(-2)).toMatch(/^\+\d+$/);
    expect(rare.at(-1)).toMatch(/^Data time /);
  });

  test("the full set of maps is drawn in bounded time", async () => {
    const started = performance.now();
    const outputs = await generateOutputs(atCaps, { ...opts, assetsDir: null });
    const ms = performance.now() - started;
    expect(outputs.files).toHaveLength(SAVE_LIMITS.sites + 3);
    // ~2 s on the 2-core dev machine under load; the margin is for a busier CI runner.
    expect(ms).toBeLessThan(15_000);
  }, 30_000);
});

describe("text", () => {
  test("truncation is one pass: a million characters cut at once, within the width", () => {
    const started = performance.now();
    const cut = truncateToWidth("w".repeat(1_000_000), 300, 18, true);
    expect(performance.now() - started).toBeLessThan(50);
    expect(cut.endsWith("…")).toBe(true);
    expect(textWidth(cut, 18, true)).toBeLessThanOrEqual(300);
    expect(textWidth(cut.slice(0, -1) + "w…", 18, true)).toBeGreaterThan(300);
    expect(truncateToWidth("钻石 ×3", 300, 18, true)).toBe("钻石 ×3");
  });

  test("a label block shows its first lines and counts the rest", () => {
    // Twenty resources the catalogue does not know, on one spot: rare finds, one label block.
    const drops = Array.from({ length: 20 }, (_, i) => drop("mysekai_unknown", i, 0, 0));
    const svg = buildSiteSvg(model(save([site(5, [...drops, material(5, 3, 3)])])), 5);
    const block = /<g class="label label-rare">(.*?)<\/g>/.exec(svg)![1]!;
    expect(block.match(/<text /g)).toHaveLength(MAP_LIMITS.linesPerLabel);
    expect(block).toContain(`>+${20 - (MAP_LIMITS.linesPerLabel - 1)}</text>`);
  });

  test("a very long resource type never reaches the map: it is named by the words for an unknown resource and its id", () => {
    const svg = buildSiteSvg(model(save([site(5, [drop("t".repeat(50_000), 1, 0, 0)])])), 5, null, { commonLabels: "all" });
    expect(svg.length).toBeLessThan(20_000);
    expect(svg).not.toContain("t".repeat(MAP_LIMITS.textChars));
    expect(svg).toContain("Unknown resource #1");
  });
});
