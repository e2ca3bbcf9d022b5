/** rare_resources.txt: the human text that goes into notifications. */
import type { Locale } from "./catalog.ts";
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import type { MapSummary } from "./summary.ts";

export interface RareTextOptions {
  locale: Locale;
  /** IANA zone of the capture time in the title line; default UTC. */
  timeZone?: string;
}

/**
 * Title line, then one line per rare resource: super, then rare, then new music records,
 * e.g. "钻石 ×3 — 心愿沙滩, 初始空地". Ends with a newline.
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
  for (const find of summary.rareFinds) {
    const mark = find.tier === "super" ? "★ " : "◆ ";
    lines.push(`${mark}${find.name} ×${find.total} — ${where(find.sites)}`);
  }
  for (const record of summary.totals.filter((t) => t.musicRecord === "new")) {
    lines.push(`● ${record.name} ${ui.newBadge} ×${record.total} — ${where(record.sites)}`);
  }
  if (lines.length === 1) lines.push(ui.noRare);
  return `${lines.join("\n")}\n`;
}
