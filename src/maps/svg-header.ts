/** A site map's title bar: the site's name, player, time and drop count, then a chip per rare find, wrapped. */
import type { Locale } from "./catalog.ts";
import type { ResourceTotal, SiteView } from "./group.ts";
import { formatCaptureTime, formatClock, UI_STRINGS } from "./i18n.ts";
import { MAP_LIMITS } from "./limits.ts";
import { dropLabel, HARVEST_POINT_TYPE, type Emphasis } from "./resources.ts";
import { playerLabel, type SaveOutputs } from "./save-outputs.ts";
import { RARE_COLOUR, SUPER_COLOUR } from "./svg-markers.ts";
import { n, text, textWidth, truncateToWidth } from "./svg-util.ts";
import { TEXT_PX } from "./text-sizes.ts";

export interface Chip {
  label: string;
  colour: string;
  emphasis: Exclude<Emphasis, "common">;
}

const MARGIN = 20;
const CHIPS_TOP = 124;
const CHIP_H = Math.round(TEXT_PX.rareLine * 1.4);
const CHIP_PAD = 14;
const CHIP_GAP = 12;
const BOTTOM = 16;
/** Super-rare finds, then new songs, then the other rare finds: what a player acts on first leads the row. */
const CHIP_ORDER: Record<Chip["emphasis"], number> = { super: 0, record: 1, rare: 2 };

/** "★ 钻石 ×3", "● 唱片「…」 NEW ×1", "◆ 月光石 ×2" chips, in CHIP_ORDER (stable within a class). */
export function rareChips(totals: readonly ResourceTotal[], locale: Locale): Chip[] {
  const chips: Chip[] = [];
  for (const t of totals) {
    const e = t.resource.emphasis;
    if (e === "common") continue;
    const mark = e === "super" ? "★" : e === "record" ? "●" : "◆";
    chips.push({ label: `${mark} ${dropLabel(t.resource, t.total, locale)}`, colour: e === "super" ? SUPER_COLOUR : RARE_COLOUR, emphasis: e });
  }
  return chips.sort((a, b) => CHIP_ORDER[a.emphasis] - CHIP_ORDER[b.emphasis]);
}

interface PlacedChip {
  label: string;
  colour: string;
  x: number;
  row: number;
  w: number;
}

/** Chips flowed into rows of `room` px; a row is never cut: the next chip starts a new one. */
function flowChips(chips: readonly Chip[], room: number): PlacedChip[] {
  const shown = chips.length > MAP_LIMITS.headerChips ? chips.slice(0, MAP_LIMITS.headerChips - 1) : chips;
  const labels = shown.map((c) => ({ label: c.label, colour: c.colour }));
  if (shown.length < chips.length) labels.push({ label: `+${chips.length - shown.length}`, colour: "#555555" });
  const placed: PlacedChip[] = [];
  let x = 0;
  let row = 0;
  for (const chip of labels) {
    const label = truncateToWidth(chip.label, room - 2 * CHIP_PAD, TEXT_PX.rareLine, true);
    const w = textWidth(label, TEXT_PX.rareLine, true) + 2 * CHIP_PAD;
    if (x > 0 && x + w > room) {
      row++;
      x = 0;
    }
    placed.push({ label, colour: chip.colour, x, row, w });
    x += w + CHIP_GAP;
  }
  return placed;
}

/** " · 夜晚 17:00-05:00": the refresh's weather and its window, in the map's language and zone; "" without one. */
function weatherText({ weather, timeZone }: SaveOutputs): string {
  if (!weather) return "";
  return ` · ${weather.name} ${formatClock(new Date(weather.startAt), timeZone)}-${formatClock(new Date(weather.endAt), timeZone)}`;
}

/** "玩家 … · 2026-03-23 18:31 UTC+8 · 夜晚 17:00-05:00": the title bars' second line (site maps and the overview). */
export function metaLine(outputs: SaveOutputs): string {
  const ui = UI_STRINGS[outputs.locale];
  return `${ui.player} ${playerLabel(outputs)} · ${formatCaptureTime(new Date(outputs.capturedAt), outputs.timeZone)}${weatherText(outputs)}`;
}

export function titleBar(view: SiteView, width: number, outputs: SaveOutputs): { svg: string[]; height: number } {
  const ui = UI_STRINGS[outputs.locale];
  const dropCount = view.totals.reduce((sum, t) => sum + (t.resource.type === HARVEST_POINT_TYPE ? 0 : t.total), 0);
  const meta = metaLine(outputs);
  const chips = flowChips(rareChips(view.totals, outputs.locale), width - 2 * MARGIN);
  const rows = chips.length === 0 ? 1 : Math.max(...chips.map((c) => c.row)) + 1;
  const height = CHIPS_TOP + rows * (CHIP_H + CHIP_GAP) - CHIP_GAP + BOTTOM;
  const dropText = `${ui.drops} ${dropCount}`;
  const nameRoom = width - 2 * MARGIN - textWidth(dropText, TEXT_PX.meta) - 24;
  const out = [
    `<rect width="${width}" height="${height}" fill="#2b2d42"/>`,
    text(MARGIN, 62, truncateToWidth(view.name, nameRoom, TEXT_PX.siteTitle, true), { size: TEXT_PX.siteTitle, fill: "#ffffff", bold: true }),
    text(width - MARGIN, 62, dropText, { size: TEXT_PX.meta, fill: "#c9cbe0", anchor: "end" }),
    text(MARGIN, 104, truncateToWidth(meta, width - 2 * MARGIN, TEXT_PX.meta, false), { size: TEXT_PX.meta, fill: "#c9cbe0" }),
  ];
  const baseline = (row: number) => CHIPS_TOP + row * (CHIP_H + CHIP_GAP) + CHIP_H / 2 + TEXT_PX.rareLine * 0.36;
  if (chips.length === 0) out.push(text(MARGIN, baseline(0), ui.noRare, { size: TEXT_PX.rareLine, fill: "#c9cbe0" }));
  for (const chip of chips) {
    const x = MARGIN + chip.x;
    const y = CHIPS_TOP + chip.row * (CHIP_H + CHIP_GAP);
    out.push(
      `<g class="chip"><rect x="${n(x)}" y="${n(y)}" width="${n(chip.w)}" height="${CHIP_H}" rx="${CHIP_H / 2}" fill="${chip.colour}"/>`,
      text(x + CHIP_PAD, baseline(chip.row), chip.label, { size: TEXT_PX.rareLine, fill: "#ffffff", bold: true }),
      `</g>`,
    );
  }
  return { svg: out, height };
}
