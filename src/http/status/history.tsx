/** @jsxImportSource hono/jsx */
/**
 * A player's last 30 days, one row per refresh under its day: the time, the rare finds and new songs as chips,
 * and links to that refresh's maps. The same view on the player's page and the owner's player page.
 */
import { HISTORY_DAYS, type PastRefresh } from "../../db/player-history.ts";
import type { RefreshDigest } from "../../maps/refresh-digest.ts";
import { matchText, type WatchMatch } from "../../watch/match.ts";
import { Section } from "./layout.tsx";

const CSS = `
.history{list-style:none;margin:0;padding:0}.history h3{font-size:14px;margin:12px 0 4px;color:#445}
.refresh{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 8px;padding:6px 0;border-top:1px solid #eee}
.refresh time{font-weight:600;font-variant-numeric:tabular-nums;min-width:3em}.chips{display:flex;flex-wrap:wrap;gap:4px;flex:1 1 12em;min-width:0}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-size:13px;background:#eef0f4;overflow-wrap:anywhere}
.chip.watched{background:#c9f0d6;font-weight:600}.chip.super{background:#ffe08a}.chip.rare{background:#e3d7ff}.chip.song{background:#ffd6e7}
.links{display:flex;flex-wrap:wrap;gap:6px;flex-basis:100%}
.links a{display:inline-block;padding:7px 10px;border-radius:16px;background:#2f5fd0;color:#fff;text-decoration:none;font-size:13px;overflow-wrap:anywhere}
.links a.site{background:#e8ecf3;color:#1d2330}
`;

const MARK = { super: "★", rare: "◆" } as const;

function Finds({ digest }: { digest: RefreshDigest | null }) {
  if (digest === null) return <span class="muted">finds not kept</span>;
  if (digest.partial) return <span class="muted">no harvest maps in this refresh</span>;
  if (digest.rare.length + digest.newSongs.length === 0) return <span class="muted">nothing rare</span>;
  return (
    <span class="chips">
      {digest.rare.map((find) => (
        <span class={`chip ${find.tier}`}>{`${MARK[find.tier]} ${find.name} ×${find.total}`}</span>
      ))}
      {digest.newSongs.map((song) => (
        <span class="chip song">{`♪ ${song.title ?? `record #${song.id}`} · new`}</span>
      ))}
      {digest.more > 0 ? <span class="chip">{`+${digest.more}`}</span> : null}
    </span>
  );
}

function Refresh({ refresh, time, watched }: { refresh: PastRefresh; time: Intl.DateTimeFormat; watched: WatchMatch[] }) {
  return (
    <li class="refresh">
      <time datetime={new Date(refresh.receivedAt).toISOString()}>{time.format(refresh.receivedAt)}</time>
      {watched.length === 0 ? null : (
        <span class="chips">
          {watched.map((match) => (
            <span class="chip watched">{`◉ ${matchText(match)}`}</span>
          ))}
        </span>
      )}
      <Finds digest={refresh.digest} />
      {refresh.maps.length === 0 ? null : (
        <span class="links">
          {refresh.maps.map((map) => (
            <a class={map.file === "overview.png" ? "overview" : "site"} href={`/maps/${refresh.token}/${map.file}`} target="_blank" rel="noopener">
              {map.label}
            </a>
          ))}
        </span>
      )}
    </li>
  );
}

/** Refreshes (newest first) grouped by their day in `timeZone`. */
function byDay(refreshes: PastRefresh[], day: Intl.DateTimeFormat): { day: string; refreshes: PastRefresh[] }[] {
  const days: { day: string; refreshes: PastRefresh[] }[] = [];
  for (const refresh of refreshes) {
    const label = day.format(refresh.receivedAt);
    if (days.at(-1)?.day !== label) days.push({ day: label, refreshes: [] });
    days.at(-1)!.refreshes.push(refresh);
  }
  return days;
}

/** `watched`: each refresh's matches of the player's watch rules (by save id). */
export function HistorySection({ refreshes, timeZone, watched }: { refreshes: PastRefresh[]; timeZone: string; watched?: Map<number, WatchMatch[]> }) {
  const day = new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", day: "numeric", month: "short" });
  const time = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return (
    <Section title={`Last ${HISTORY_DAYS} days`}>
      <style>{CSS}</style>
      {refreshes.length === 0 ? (
        <p class="muted">No refreshes in the last {HISTORY_DAYS} days.</p>
      ) : (
        <p class="muted">
          {refreshes.length} {refreshes.length === 1 ? "refresh" : "refreshes"}, times in {timeZone}. Tap a map to open it.
        </p>
      )}
      <div class="history" id="history">
        {byDay(refreshes, day).map((group) => (
          <>
            <h3>{group.day}</h3>
            <ol class="history">
              {group.refreshes.map((refresh) => (
                <Refresh refresh={refresh} time={time} watched={watched?.get(refresh.saveId) ?? []} />
              ))}
            </ol>
          </>
        ))}
      </div>
    </Section>
  );
}
