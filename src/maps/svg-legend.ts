/**
 * A site map's legend: every resource on the site with its mark and count, then the harvest-point shapes the map
 * shows (a shape hidden under every drop on it is not claimed).
 */
import type { FixtureKind, Locale } from "./catalog.ts";
import type { SiteView } from "./group.ts";
import { UI_STRINGS } from "./i18n.ts";
import { kindMark } from "./kind-marks.ts";
import { MAP_LIMITS } from "./limits.ts";
import type { MapLayout } from "./map-layout.ts";
import { dropLabel, type Emphasis } from "./resources.ts";
import { dropMarker, fixtureMarker, RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { text, textWidth, truncateToWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

const MARGIN = 20;
const COLUMNS = 3;
const ROW = Math.round(TEXT_PX.legend * 1.5);
const HEADING_H = Math.round(TEXT_PX.legendHeading * 1.6);
const MARKER_W = 44;
const FIXTURE_KINDS: readonly FixtureKind[] = ["party", "tree", "rock", "plant", "other"];

/** The kinds of harvest point the map shows (drawn and not hidden under a drop), in legend order. */
export function shownFixtureKinds(layout: MapLayout): FixtureKind[] {
  const shown = new Set(layout.fixtures.filter((f) => f.visible).map((f) => f.kind));
  return FIXTURE_KINDS.filter((k) => shown.has(k));
}

/** The mark a legend row shows for a resource: its kind's mark for commons, the emphasis's marker otherwise. */
export function legendMarkId(emphasis: Emphasis, kind: string): string {
  return emphasis === "common" ? kindMark(kind).id : `marker:${emphasis}`;
}

/** Every mark the legend shows, as ids comparable with the map's (tests hold one against the other). */
export function legendMarks(view: SiteView, layout: MapLayout): { resources: string[]; harvestPoints: FixtureKind[] } {
  const shown = view.totals.slice(0, view.totals.length > MAP_LIMITS.legendEntries ? MAP_LIMITS.legendEntries - 1 : undefined);
  return { resources: shown.map((t) => legendMarkId(t.resource.emphasis, t.resource.kind)), harvestPoints: shownFixtureKinds(layout) };
}

function resourceRows(view: SiteView): number {
  return Math.max(1, Math.ceil(Math.min(view.totals.length, MAP_LIMITS.legendEntries) / COLUMNS));
}

export function legendHeight(view: SiteView, layout: MapLayout): number {
  const harvestPoints = shownFixtureKinds(layout).length > 0 ? ROW + 8 : 0;
  return HEADING_H + resourceRows(view) * ROW + harvestPoints + 20;
}

function resourceEntries(view: SiteView, top: number, width: number, locale: Locale): string[] {
  const colW = (width - 2 * MARGIN) / COLUMNS;
  const overflow = view.totals.length > MAP_LIMITS.legendEntries;
  const shown = overflow ? view.totals.slice(0, MAP_LIMITS.legendEntries - 1) : view.totals;
  const slot = (i: number) => ({ x: MARGIN + (i % COLUMNS) * colW, y: top + Math.floor(i / COLUMNS) * ROW });
  const baseline = TEXT_PX.legend * 1.1;
  const out: string[] = [];
  shown.forEach((t, i) => {
    const { x, y } = slot(i);
    const e = t.resource.emphasis;
    out.push(dropMarker(x + 18, y + baseline - TEXT_PX.legend * 0.36, e, t.resource.kind, false, e === "common" ? 1.1 : 0.75));
    const bold = e !== "common";
    const colour = e === "super" ? SUPER_COLOUR : e === "common" ? "#2d2d2d" : RARE_COLOUR;
    const label = truncateToWidth(dropLabel(t.resource, t.total, locale), colW - MARKER_W - 8, TEXT_PX.legend, bold);
    out.push(text(x + MARKER_W, y + baseline, label, { size: TEXT_PX.legend, fill: colour, bold }));
  });
  if (overflow) {
    const { x, y } = slot(shown.length);
    out.push(text(x + MARKER_W, y + baseline, `+${view.totals.length - shown.length}`, { size: TEXT_PX.legend, fill: "#555555", bold: true }));
  }
  return out;
}

/** "Harvest points: ▲ tree  ⬟ rock …", one item per kind drawn, each with the map's own shape (larger). */
function harvestPointEntries(layout: MapLayout, top: number, locale: Locale): string[] {
  const kinds = shownFixtureKinds(layout);
  if (kinds.length === 0) return [];
  const ui = UI_STRINGS[locale];
  const baseline = top + TEXT_PX.legend * 1.1;
  const out = [text(MARGIN, baseline, ui.harvestPoints, { size: TEXT_PX.legend, fill: "#2b2d42", bold: true })];
  let x = MARGIN + textWidth(ui.harvestPoints, TEXT_PX.legend, true) + 28;
  for (const kind of kinds) {
    const name = ui.harvestPointKinds[kind];
    out.push(
      `<g class="legend-harvest-point" data-kind="${kind}">`,
      fixtureMarker(x + 14, baseline - TEXT_PX.legend * 0.36, kind, false, 0.8),
      text(x + MARKER_W - 6, baseline, name, { size: TEXT_PX.legend, fill: "#2d2d2d" }),
      `</g>`,
    );
    x += MARKER_W + textWidth(name, TEXT_PX.legend) + 32;
  }
  return out;
}

export function legend(view: SiteView, layout: MapLayout, top: number, width: number, locale: Locale): string[] {
  const ui = UI_STRINGS[locale];
  const out = [text(MARGIN, top + TEXT_PX.legendHeading, ui.legend, { size: TEXT_PX.legendHeading, fill: "#2b2d42", bold: true })];
  const entriesTop = top + HEADING_H;
  if (view.totals.length === 0) out.push(text(MARGIN, entriesTop + TEXT_PX.legend * 1.1, ui.noDrops, { size: TEXT_PX.legend, fill: "#555555" }));
  else out.push(...resourceEntries(view, entriesTop, width, locale));
  out.push(...harvestPointEntries(layout, entriesTop + resourceRows(view) * ROW + 8, locale));
  return out;
}
