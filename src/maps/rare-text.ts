/** rare_resources.txt: the human text that goes into notifications. */
import type { Locale } from "./catalog.ts";
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { clipText, MAP_LIMITS } from "./limits.ts";
import type { MapSummary } from "./summary.ts";

export interface RareTextOptions {
  locale: Locale;
  /** IANA zone of the capture time in the title line; default UTC. */
  timeZone?: string;
}

/**
 * Title line, then one line per rare resource: super, then rare, then new music records,
 * e.g. "钻石 ×3 — 心愿沙滩, 初始空地"; past MAP_LIMITS.rareLines, one "+N" line. Ends with a newline.
 */
export function formatRareText(summary: MapSummary, opts: RareTextOptions): string {
  const ui = UI_STRINGS[opts.locale];
  const siteNames = new Map(summary.sites.map((s) => [s.siteId, s.name]));
  const where = (sites: number[]) => sites.map((id) => siteNames.get(id) ?? `Site ${id}`).join(ui.listSeparator);
  const time = formatCaptureTime(new Date(summary.capturedAt), opts.timeZone ?? "UTC");
  const lines = [`${ui.rareTitle} · ${summary.playerId} · ${time}`];

  if (!summary.hasHarvestMaps) {
    lines.push(ui.noHarvestMaps);
    return `${lines.join("\n")}\n`;
  }
  const rare = [
    ...summary.rareFinds.map((find) => `${find.tier === "super" ? "★ " : "◆ "}${find.name} ×${find.total} — ${where(find.sites)}`),
    ...summary.totals
      .filter((t) => t.musicRecord === "new")
      .map((record) => `● ${record.name} ${ui.newBadge} ×${record.total} — ${where(record.sites)}`),
  ];
  const max = MAP_LIMITS.rareLines;
  if (rare.length === 0) lines.push(ui.noRare);
  else if (rare.length <= max) lines.push(...rare.map(clipText));
  else lines.push(...rare.slice(0, max - 1).map(clipText), `+${rare.length - (max - 1)}`);
  return `${lines.join("\n")}\n`;
}
