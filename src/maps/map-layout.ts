/**
 * Where everything on one site's map area goes, as numbers: harvest points, each spot's marks, the label blocks
 * with their boxes and leader lines, and the blocks that found no free place (listed beside the map). The SVG
 * (svg-map-layer.ts) and the legend draw from it, and tests check it geometrically.
 *
 * Label policy (docs/maps.md): super-rare and rare finds and new songs always get a label; common drops get a
 * mark per kind of material (kind-marks.ts) that the legend names with its count, and a label only with
 * `commonLabels: "all"` (MAP_COMMON_LABELS=all). A real site holds up to ~250 drops on ~100 spots: a label on
 * each would bury the few finds that matter.
 */
import type { Locale } from "./catalog.ts";
import type { SiteProjection } from "./geometry.ts";
import type { FixtureView, SiteView, Spot, SpotItem } from "./group.ts";
import { kindClusters } from "./kind-clusters.ts";
import { KIND_MARK_RADIUS, kindMark } from "./kind-marks.ts";
import { layoutLabels, type Box, type LabelRequest, type PlacedLabel } from "./label-layout.ts";
import { clipText, MAP_LIMITS } from "./limits.ts";
import { dropLabel, emphasisRank, type Emphasis } from "./resources.ts";
import { FIXTURE_RADIUS, labelStyle, markerRadius } from "./svg-markers.ts";
import { textWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

export interface LayoutOptions {
  locale: Locale;
  /** Output pixels per map pixel (1 for site maps, smaller in overview panels). */
  scale: number;
  /** Size factor of markers (kept larger than `scale` in small panels). */
  symbolScale: number;
  /** Size factor of label text (text-sizes.ts: 1 on site maps). */
  labelScale: number;
  /** "all": every drop gets a label; "highlights": only super, rare and new records. */
  labels: "all" | "highlights";
  /** Label blocks laid out at most, most important first; past it, common blocks go unlabelled, others to the list. */
  labelCap: number;
  /** With "highlights": one small count beside each cluster of one kind (kind-clusters.ts), where there is room. */
  clusterCounts: boolean;
}

export interface Block {
  spot: Spot;
  at: { x: number; y: number };
  emphasis: Emphasis;
  items: SpotItem[];
}

export interface BlockText {
  w: number;
  h: number;
  lines: string[];
  /** Per line: drawn faded (an item already harvested). */
  faded: boolean[];
}

/** One common mark of a spot: the kind of material it stands for, where, and how large. */
export interface KindMarkAt {
  kind: string;
  x: number;
  y: number;
  r: number;
}

export interface SpotLayout {
  spot: Spot;
  at: { x: number; y: number };
  emphasis: Emphasis;
  faded: boolean;
  lead: SpotItem;
  /** One mark per kind of common material at the spot: in a row on the spot, or under its rare marker. */
  marks: KindMarkAt[];
  /** What labels keep clear of: every mark of the spot. */
  box: Box;
}

export interface FixtureLayout extends FixtureView {
  x: number;
  y: number;
  r: number;
  /** false when a drop's opaque mark covers it whole (then the legend does not claim its shape). */
  visible: boolean;
}

export interface LabelLayout extends PlacedLabel {
  block: Block;
  text: BlockText;
}

/** A cluster's count as drawn: its kind's mark and "×N" in a small box; none where there is no free room. */
export interface CountLayout {
  kind: string;
  text: string;
  box: Box;
  fontSize: number;
}

export interface MapLayout {
  fixtures: FixtureLayout[];
  spots: SpotLayout[];
  labels: LabelLayout[];
  counts: CountLayout[];
  /** Blocks with no free place on the map, most important first: listed beside the map. */
  unplaced: { block: Block; text: BlockText }[];
}

const LABEL_EMPHASES: readonly Emphasis[] = ["super", "rare", "record", "common"];
/** Inner margin of a label box, in proportion to its text. */
export const padOf = (fontSize: number) => Math.round(fontSize * 0.2);
/** Line pitch in a label, in ems: tight, so that a block of several drops takes less of a crowded map. */
export const LINE_HEIGHT = 1.2;

export function spotEmphasis(items: readonly SpotItem[]): { emphasis: Emphasis; faded: boolean; lead: SpotItem } {
  const live = items.filter((i) => !i.harvested);
  const pool = live.length ? live : items;
  const lead = [...pool].sort((a, b) => emphasisRank(a.resource.emphasis) - emphasisRank(b.resource.emphasis))[0]!;
  return { emphasis: lead.resource.emphasis, faded: live.length === 0, lead };
}

function blockSize(block: Block, locale: Locale, labelScale: number): BlockText {
  const style = labelStyle(block.emphasis, labelScale);
  const pad = padOf(style.fontSize);
  const max = MAP_LIMITS.linesPerLabel;
  const shown = block.items.length > max ? block.items.slice(0, max - 1) : block.items;
  const lines = shown.map((i) => clipText(dropLabel(i.resource, i.quantity, locale)));
  const faded = shown.map((i) => i.harvested);
  if (shown.length < block.items.length) {
    lines.push(`+${block.items.length - shown.length}`);
    faded.push(false);
  }
  const w = Math.max(...lines.map((l) => textWidth(l, style.fontSize, style.bold))) + pad * 2;
  const h = lines.length * style.fontSize * LINE_HEIGHT + pad * 2 - style.fontSize * (LINE_HEIGHT - 1);
  return { w, h, lines, faded };
}

/** The spot's common kinds as a row of marks: centred on the spot, or just under a rare marker. */
function spotLayout(spot: Spot, at: { x: number; y: number }, symbolScale: number): SpotLayout {
  const { emphasis, faded, lead } = spotEmphasis(spot.items);
  const live = spot.items.filter((i) => !i.harvested);
  const commons = (live.length ? live : spot.items).filter((i) => i.resource.emphasis === "common");
  const kinds = [...new Set(commons.map((i) => i.resource.kind))];
  const r = KIND_MARK_RADIUS * symbolScale;
  const pitch = 2 * r + 3 * symbolScale;
  const centre = markerRadius(emphasis, symbolScale);
  const rowY = emphasis === "common" ? at.y : at.y + centre + r + 2 * symbolScale;
  const marks = kinds.map((kind, i) => ({ kind, x: at.x + (i - (kinds.length - 1) / 2) * pitch, y: rowY, r }));
  const half = Math.max(emphasis === "common" ? 0 : centre, ((kinds.length - 1) / 2) * pitch + r);
  const top = at.y - (emphasis === "common" ? r : centre);
  const bottom = marks.length ? rowY + r : at.y + centre;
  return { spot, at, emphasis, faded, lead, marks, box: { x: at.x - half, y: top, w: 2 * half, h: bottom - top } };
}

/** Half the size of the opaque part of a spot's drawing around its centre (a rare marker's ring is see-through). */
function opaqueHalf(spot: SpotLayout, symbolScale: number): number {
  if (spot.emphasis === "super") return 13.5 * symbolScale;
  if (spot.emphasis !== "common") return 13 * symbolScale;
  return spot.marks.length === 1 ? spot.marks[0]!.r * 1.2 : 0;
}

export function layoutMap(view: SiteView, proj: SiteProjection, opts: LayoutOptions): MapLayout {
  const s = opts.scale;
  const at = (x: number, z: number) => {
    const p = proj.project(x, z);
    return { x: p.x * s, y: p.y * s };
  };
  const spots = view.spots.map((spot) => spotLayout(spot, at(spot.positionX, spot.positionZ), opts.symbolScale));
  const spotAt = new Map(spots.map((sp) => [`${sp.spot.positionX},${sp.spot.positionZ}`, sp]));
  const fixtures = view.fixtures.map((f) => {
    const p = at(f.positionX, f.positionZ);
    const r = FIXTURE_RADIUS * opts.symbolScale;
    const on = spotAt.get(`${f.positionX},${f.positionZ}`);
    return { ...f, x: p.x, y: p.y, r, visible: !on || opaqueHalf(on, opts.symbolScale) < r };
  });

  const blocks: Block[] = [];
  for (const sp of spots) {
    // One label per emphasis: a box never lists a rare find under the super-rare colour, nor the other way round.
    for (const e of LABEL_EMPHASES) {
      if (e === "common" && opts.labels !== "all") continue;
      const items = sp.spot.items.filter((i) => i.resource.emphasis === e);
      if (items.length) blocks.push({ spot: sp.spot, at: sp.at, emphasis: e, items });
    }
  }
  blocks.sort((a, b) => emphasisRank(a.emphasis) - emphasisRank(b.emphasis));
  // Placement is quadratic in the labels: past the cap, common spots keep their marks and finds go to the list.
  const sized = blocks.map((block) => ({ block, text: blockSize(block, opts.locale, opts.labelScale) }));
  const laidOut = sized.slice(0, opts.labelCap);
  const requests: LabelRequest[] = laidOut.map((b) => ({
    anchorX: b.block.at.x,
    anchorY: b.block.at.y,
    markerRadius: markerRadius(spotEmphasis(b.block.spot.items).emphasis, opts.symbolScale),
    width: b.text.w,
    height: b.text.h,
  }));
  const counts = opts.clusterCounts && opts.labels === "highlights" ? countRequests(spots, opts) : [];
  const rareMarks = spots.filter((sp) => sp.emphasis !== "common").map((sp) => markerBox(sp, opts.symbolScale));
  const bounds = { x: 4, y: 4, w: proj.width * s - 8, h: proj.height * s - 8 };
  const placed = layoutLabels([...requests, ...counts.map((c) => c.request)], spots.map((sp) => sp.box), rareMarks, bounds);
  const labels: LabelLayout[] = [];
  const unplaced: MapLayout["unplaced"] = [];
  laidOut.forEach((b, i) => {
    const p = placed[i];
    if (p) labels.push({ ...p, ...b });
    else unplaced.push(b);
  });
  unplaced.push(...sized.slice(opts.labelCap).filter((b) => b.block.emphasis !== "common"));
  const countsPlaced = counts.flatMap((c, i) => {
    const p = placed[laidOut.length + i];
    return p ? [{ kind: c.kind, text: c.text, box: p.box, fontSize: c.fontSize }] : [];
  });
  return { fixtures, spots, labels, counts: countsPlaced, unplaced };
}

/** Inner margin of a count box, and the room its kind's mark takes before the text. */
export const COUNT_PAD = 4;

function countRequests(spots: readonly SpotLayout[], opts: LayoutOptions) {
  const fontSize = Math.round(TEXT_PX.commonLabel * opts.labelScale);
  const mark = 2 * KIND_MARK_RADIUS * opts.symbolScale;
  return kindClusters(spots, opts.symbolScale).map((c) => {
    const text = `×${c.total}`;
    const request: LabelRequest = {
      anchorX: c.extent.x + c.extent.w / 2,
      anchorY: c.extent.y + c.extent.h / 2,
      markerRadius: 0,
      halfSize: { x: c.extent.w / 2 + KIND_MARK_RADIUS * opts.symbolScale, y: c.extent.h / 2 + KIND_MARK_RADIUS * opts.symbolScale },
      width: COUNT_PAD * 3 + mark + textWidth(text, fontSize, true),
      height: Math.max(mark, fontSize * LINE_HEIGHT) + COUNT_PAD * 2,
      count: true,
    };
    return { kind: c.kind, text, fontSize, request };
  });
}

/** The rare or super-rare marker of a spot, which no label may cover. */
export function markerBox(sp: SpotLayout, symbolScale: number): Box {
  const r = markerRadius(sp.emphasis, symbolScale);
  return { x: sp.at.x - r, y: sp.at.y - r, w: 2 * r, h: 2 * r };
}

/** Every mark the map shows, as the legend names them (svg-legend.ts legendMarkId). */
export function shownMarks(layout: MapLayout): Set<string> {
  const ids = new Set<string>();
  for (const sp of layout.spots) {
    if (sp.emphasis !== "common") ids.add(`marker:${sp.emphasis}`);
    for (const m of sp.marks) ids.add(kindMark(m.kind).id);
  }
  return ids;
}
