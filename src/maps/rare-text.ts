/**
 * rare_resources.txt and the push text, from the outputs model: what a player acts on first (rare finds and
 * new music records, site by site), then the time of the data.
 */
import { formatCaptureTime, UI_STRINGS } from "./i18n.ts";
import { clipText, MAP_LIMITS } from "./limits.ts";
import type { Emphasis } from "./resources.ts";
import { isBirthdayParty, playerLabel, type SaveOutputs } from "./save-outputs.ts";

export interface RareLine {
  text: string;
  /** The emphasis of the resource the line names; null for the lines that name none (site, "+N", "nothing rare"). */
  emphasis: Exclude<Emphasis, "common"> | null;
}

export interface RareText {
  title: string;
  lines: RareLine[];
  /** "存档时间 2025-03-01 08:30 UTC+8": the save's own time (else when it was received), the text's last line. */
  dataTime: string;
}

const MARK: Record<Exclude<Emphasis, "common">, string> = { super: "★", rare: "◆", record: "●" };

/**
 * Title, then per site with something rare (sites by id) the site's name and one indented line per super,
 * rare or new music record of that site, e.g. "  ★ 钻石 ×3"; past MAP_LIMITS.rareLines lines, one "+N" line
 * (N: the finds left out).
 */
export function rareText(outputs: SaveOutputs): RareText {
  const ui = UI_STRINGS[outputs.locale];
  const title = `${isBirthdayParty(outputs) ? ui.partyRefreshTitle : ui.rareTitle} · ${playerLabel(outputs)}`;
  const dataTime = `${ui.dataTime} ${formatCaptureTime(new Date(outputs.saveTime ?? outputs.capturedAt), outputs.timeZone)}`;
  const plain = (text: string): RareLine => ({ text: clipText(text), emphasis: null });

  if (outputs.partial) return { title, lines: [plain(ui.noHarvestMaps)], dataTime };
  const lines: RareLine[] = [];
  for (const site of outputs.sites) {
    const finds = site.totals.filter((t) => t.resource.emphasis !== "common");
    if (finds.length === 0) continue;
    lines.push(plain(site.name));
    // A site's totals come most important first.
    for (const { resource, total } of finds) {
      const emphasis = resource.emphasis as Exclude<Emphasis, "common">;
      const badge = resource.musicRecord === "new" ? ` ${ui.newBadge}` : "";
      lines.push({ text: clipText(`  ${MARK[emphasis]} ${resource.name}${badge} ×${total}`), emphasis });
    }
  }
  const max = MAP_LIMITS.rareLines;
  if (lines.length === 0) return { title, lines: [plain(ui.noRare)], dataTime };
  if (lines.length <= max) return { title, lines, dataTime };
  const kept = lines.slice(0, max - 1);
  const left = lines.slice(max - 1).filter((line) => line.emphasis !== null).length;
  return { title, lines: [...kept, plain(`+${left}`)], dataTime };
}

/** The file's (and the push's) text: the title, the lines, the data time; ends with a newline. */
export function formatRareText(outputs: SaveOutputs): string {
  const { title, lines, dataTime } = rareText(outputs);
  return `${[title, ...lines.map((line) => line.text), dataTime].join("\n")}\n`;
}
