import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOverviewSvg, buildSiteSvg, describeSave, loadAssetPack, type OutputsContext } from "../../src/maps/index.ts";
import { RARE_COLOUR, SUPER_COLOUR } from "../../src/maps/svg-markers.ts";
import { rareLineColour } from "../../src/maps/svg-rare-list.ts";
import type { MySekaiSave } from "../../src/save/model.ts";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { drop, fixture, material, save, site } from "../helpers/maps-fixtures.ts";

const opts: OutputsContext = {
  playerId: "7412589630147258963",
  capturedAt: new Date("2025-03-01T00:30:00Z"),
  locale: "zh-Hans",
  showHarvested: false,
  timeZone: "Asia/Shanghai",
};

const model = (s: MySekaiSave, ctx: Partial<OutputsContext> = {}) => describeSave(s, { ...opts, ...ctx });
/** MAP_COMMON_LABELS=all: every drop labelled, as these tests of label contents need. */
const ALL_LABELS = { commonLabels: "all" } as const;

/** Every drawn label as { style, lines } (label groups hold no nested groups). */
function labels(svg: string): { style: string; lines: string[] }[] {
  return [...svg.matchAll(/<g class="label label-(\w+)">(.*?)<\/g>/g)].map((m) => ({
    style: m[1]!,
    lines: [...m[2]!.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]!),
  }));
}

function labelStyleOf(svg: string, line: string): string | undefined {
  return labels(svg).find((l) => l.lines.includes(line))?.style;
}

const SUPER = [5, 12, 20, 24];
const RARE = [32, 33, 34, 61, 64, 65, 66];
const NAMES: Record<number, string> = {
  5: "夕桐", 12: "钻石", 20: "四叶草", 24: "空白的音色",
  32: "蓝天海玻璃", 33: "月光石", 34: "流星碎片", 61: "雪之结晶", 64: "雷光石", 65: "彩虹玻璃", 66: "蓬松柔软的棉花云",
};

describe("site SVG", () => {
  test("every super and rare resource gets its style, a marker and a legend entry", () => {
    const drops = [...SUPER, ...RARE].map((id, i) => material(id, (i % 6) * 4 - 10, Math.floor(i / 6) * 8 - 8, 2));
    drops.push(drop("mysekai_fixture", 121, 8, 8));
    const svg = buildSiteSvg(model(save([site(5, drops)])), 5);
    for (const id of SUPER) expect(labelStyleOf(svg, `${NAMES[id]} ×2`)).toBe("super");
    for (const id of RARE) expect(labelStyleOf(svg, `${NAMES[id]} ×2`)).toBe("rare");
    expect(labelStyleOf(svg, "夕桐的树苗 ×1")).toBe("super");
    expect(svg.match(/class="drop-super"/g)?.length).toBe(SUPER.length + 1 + SUPER.length + 1); // map + legend
    expect(svg.match(/class="drop-rare"/g)?.length).toBe(RARE.length * 2);
    expect(svg).toContain("★ 钻石 ×2"); // title-bar chip
  });

  test("drops on one spot are grouped by (type, id) with summed quantities", () => {
    const s = save([site(5, [material(5, 1, 1, 1), drop("mysekai_item", 5, 1, 1, 2), material(5, 1, 1, 2), material(1, 1, 1, 1), material(1, 1, 1, 2)])]);
    const all = labels(buildSiteSvg(model(s), 5, null, ALL_LABELS));
    expect(all).toContainEqual({ style: "super", lines: ["夕桐 ×3"] });
    expect(all).toContainEqual({ style: "common", lines: ["心愿木材 ×3", "多余唱片 ×2"] });
  });

  test("new music records are rare-styled with NEW, owned ones are common", () => {
    const s = save([site(6, [drop("mysekai_music_record", 7, 0, 0), drop("mysekai_music_record", 8, 9, 9), drop("mysekai_music_record", 999_999, 5, 5)])], [8]);
    const svg = buildSiteSvg(model(s), 6, null, ALL_LABELS);
    expect(labelStyleOf(svg, "唱片「快乐万岁」 NEW ×1")).toBe("record");
    expect(labelStyleOf(svg, "唱片「Nostalogic」 (已拥有) ×1")).toBe("common");
    expect(labelStyleOf(svg, "唱片 #999999 NEW ×1")).toBe("record");
    expect(svg).toContain(`class="drop-record"`);
  });

  test("harvested drops are hidden by default and drawn faded with showHarvested", () => {
    const s = save([site(7, [material(23, 0, 0, 2, true), material(12, 3, 3, 1, true), material(1, 5, 5)])]);
    const hidden = buildSiteSvg(model(s), 7);
    expect(hidden).not.toContain("花瓣");
    expect(hidden).not.toContain("钻石");
    const shown = buildSiteSvg(model(s, { showHarvested: true }), 7, null, ALL_LABELS);
    expect(shown).toMatch(/<text[^>]*opacity="0.45">花瓣 ×2<\/text>/);
    expect(shown).toMatch(/<g class="drop-super" opacity="0.35">/);
  });

  test("harvest points are drawn by kind; harvested ones only with showHarvested", () => {
    const fixtures = [fixture(1001, 0, 0), fixture(2003, 2, 2), fixture(4005, 4, 4), fixture(8001, 5, 5), fixture(6001, 6, 6), fixture(1002, 8, 8, true)];
    const svg = buildSiteSvg(model(save([site(5, [], fixtures)])), 5);
    // Each count is the map's markers plus the kind's one legend entry.
    expect(svg.match(/class="fx-tree"/g)?.length).toBe(1 + 1);
    expect(svg.match(/class="fx-rock"/g)?.length).toBe(1 + 1);
    expect(svg.match(/class="fx-plant"/g)?.length).toBe(1 + 1);
    expect(svg.match(/class="fx-party"/g)?.length).toBe(1 + 1); // 8001, haruka_2025's harvest point
    expect(svg.match(/class="fx-other"/g)?.length).toBe(1 + 1); // driftage
    const shown = buildSiteSvg(model(save([site(5, [], fixtures)]), { showHarvested: true }), 5);
    expect(shown.match(/class="fx-tree"[^>]*opacity="0.25"/g)?.length).toBe(1);
  });

  test("unknown resources and unknown sites are drawn as finds in the map's language, never dropped", () => {
    const s = save([site(99, [material(999, 0, 0, 3), drop("mysekai_widget", 4, 10, 10)])]);
    const svg = buildSiteSvg(model(s), 99);
    expect(svg).toContain(">◆ 未知材料 #999 ×3<");
    expect(svg).toContain(">未知资源 #4 ×1<");
    expect(svg).toContain(">Site 99<");
  });

  test("same input gives byte-identical SVG", () => {
    const a = makeSampleMySekaiSave({ seed: 3 });
    const b = makeSampleMySekaiSave({ seed: 3 });
    expect(buildSiteSvg(model(a), 6)).toBe(buildSiteSvg(model(b), 6));
    expect(buildOverviewSvg(model(a))).toBe(buildOverviewSvg(model(b)));
  });

  test("placed labels do not overlap each other on a realistic site (every rule on the layout itself: maps-layout.test.ts)", () => {
    const svg = buildSiteSvg(model(makeSampleMySekaiSave({ seed: 1 })), 5, null, ALL_LABELS);
    const boxes = [...svg.matchAll(/<g class="label[^"]*">(?:<path[^>]*\/>)?<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"/g)].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }),
    );
    expect(boxes.length).toBeGreaterThan(30);
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) overlaps++;
      }
    }
    expect(overlaps).toBe(0);
  });

  test("overview has one panel per site and the rare lines", () => {
    const s = save([site(5, [material(12, 0, 0)]), site(8, [material(1, 0, 0)])]);
    const svg = buildOverviewSvg(model(s));
    expect(svg).toContain(">初始空地<");
    expect(svg).toContain(">忘却之所<");
    expect(svg).toMatch(/x="16"[^>]*>初始空地<\/text>\n<text x="56"[^>]*>★ 钻石 ×1</);
    expect(svg.match(/class="ground"/g)?.length).toBe(2);
  });

  test("overview colours each rare line by the tier of the resource it names, never by its text", () => {
    const s = save([site(5, [material(12, 0, 0), material(33, 1, 1), drop("mysekai_music_record", 7, 2, 2)])]);
    const fillOf = (svg: string, line: string) => new RegExp(`fill="(#[0-9a-f]+)"[^>]*>${line}<`).exec(svg)?.[1];
    const svg = buildOverviewSvg(model(s));
    expect(fillOf(svg, "★ 钻石 ×1")).toBe(SUPER_COLOUR);
    expect(fillOf(svg, "◆ 月光石 ×1")).toBe(RARE_COLOUR);
    expect(fillOf(svg, "● 唱片「快乐万岁」 NEW ×1")).toBe(RARE_COLOUR);
    // The colour follows the line's emphasis, whatever its text starts with.
    expect(rareLineColour({ text: "★ +3", emphasis: null })).toBe("#2d2d2d");
    expect(rareLineColour({ text: "◆ x", emphasis: "super" })).toBe(SUPER_COLOUR);
    expect(fillOf(buildOverviewSvg(model(save([site(5, [material(1, 0, 0)])]))), "今日没有稀有资源")).toBe("#2d2d2d");
  });
});

describe("asset pack", () => {
  const dir = mkdtempSync(join(tmpdir(), "maps-assets-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A valid 1x1 PNG.
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  );

  test("site background and PNG icons are embedded as data URIs; WebP-only icons fall back to vectors", async () => {
    mkdirSync(join(dir, "sites"));
    mkdirSync(join(dir, "icons"));
    writeFileSync(join(dir, "sites", "5.png"), png);
    writeFileSync(join(dir, "icons", "mysekai_material_12.png"), png);
    writeFileSync(join(dir, "icons", "mysekai_material_1.webp"), Buffer.from("RIFF0000WEBP"));
    const s = save([site(5, [material(12, 0, 0), material(1, 4, 4)])]);
    const assets = await loadAssetPack(dir, s);
    expect([...assets.siteBackgrounds.keys()]).toEqual([5]);
    expect([...assets.icons.keys()]).toEqual(["mysekai_material:12"]);
    const svg = buildSiteSvg(model(s), 5, assets);
    const uri = `data:image/png;base64,${png.toString("base64")}`;
    expect(svg).toContain(`<image x="-300" y="0" width="1920" height="1080" clip-path="url(#clip-site-5)" xlink:href="${uri}"/>`);
    expect(svg).toContain(`<g class="drop-super drop-icon">`);
    expect(svg.split(uri).length - 1).toBe(2);
    expect(svg).toContain(`class="drop-common"`); // material 1 keeps its vector dot
  });
});
