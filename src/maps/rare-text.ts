/** rare_resources.txt: the human text that goes into notifications, from the outputs model. */
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { clipText, MAP_LIMITS } from "./limits.ts";
import type { Emphasis } from "./resources.ts";
import type { SaveOutputs } from "./save-outputs.ts";

export interface RareLine {
  text: string;
  /** The emphasis of the resource the line names; null for the lines that name none ("+N", "nothing rare"). */
  emphasis: Exclude<Emphasis, "common"> | null;
}

export interface RareText {
  title: string;
  lines: RareLine[];
}

/**
 * Title, then one line per rare resource: super, then rare, then new music records, e.g.
 * "钻石 ×3 — 心愿沙滩, 初始空地"; past MAP_LIMITS.rareLines, one "+N" line.
 */
export function rareText(outputs: SaveOutputs): RareText {
  const ui = UI_STRINGS[outputs.locale];
  const siteNames = new Map(outputs.sites.map((s) => [s.siteId, s.name]));
  const where = (sites: number[]) => sites.map((id) => siteNames.get(id) ?? `Site ${id}`).join(ui.listSeparator);
  const title = `${ui.rareTitle} · ${outputs.playerId} · ${formatCaptureTime(new Date(outputs.capturedAt), outputs.timeZone)}`;
  const plain = (text: string): RareLine => ({ text, emphasis: null });

  if (outputs.partial) return { title, lines: [plain(ui.noHarvestMaps)] };
  const rare: RareLine[] = [
    ...outputs.rareFinds.map(({ resource, total, sites }) => {
      const emphasis = resource.tier === "super" ? "super" : "rare";
      return { text: `${emphasis === "super" ? "★ " : "◆ "}${resource.name} ×${total} — ${where(sites)}`, emphasis } as const;
    }),
    ...outputs.totals
      .filter((t) => t.resource.musicRecord === "new")
      .map((record) => ({ text: `● ${record.resource.name} ${ui.newBadge} ×${record.total} — ${where(record.sites)}`, emphasis: "record" as const })),
  ];
  const max = MAP_LIMITS.rareLines;
  const clipped = (line: RareLine): RareLine => ({ ...line, text: clipText(line.text) });
  if (rare.length === 0) return { title, lines: [plain(ui.noRare)] };
  if (rare.length <= max) return { title, lines: rare.map(clipped) };
  return { title, lines: [...rare.slice(0, max - 1).map(clipped), plain(`+${rare.length - (max - 1)}`)] };
}

/** The file's text: the title, then the lines; ends with a newline. */
export function formatRareText(outputs: SaveOutputs): string {
  const { title, lines } = rareText(outputs);
  return `${[title, ...lines.map((line) => line.text)].join("\n")}\n`;
}
