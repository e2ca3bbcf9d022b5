/** @jsxImportSource hono/jsx */
/**
 * A player's last 30 days, one row per refresh under its day: the time, the rare finds and new songs as chips,
 * and links to that refresh's maps. The same view on the player's page and the owner's player page.
 */
import { findResource, knownSiteName, pickName, type Locale } from "../../maps/catalog.ts";
import { musicRecordTitle } from "../../maps/music-titles.ts";
import type { DigestFind, RefreshDigest } from "../../maps/refresh-digest.ts";
import type { PageLang } from "../page-lang.ts";
import { Section, Time } from "./layout.tsx";
import type { WatchMatch } from "../../store/model/watch.ts";
import { matchText } from "../../watch/match.ts";
import { HISTORY_DAYS, type PastRefresh } from "../../store/model/pages.ts";

const CSS = `
.history{list-style:none;margin:0;padding:0}.history h3{font-size:14px;margin:12px 0 4px;color:#445}
.refresh{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 8px;padding:6px 0;border-top:1px solid #eee}
.refresh time{font-weight:600;font-variant-numeric:tabular-nums;min-width:3em;white-space:nowrap}.chips{display:flex;flex-wrap:wrap;gap:4px;flex:1 1 12em;min-width:0}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-size:13px;background:#eef0f4;overflow-wrap:anywhere}
.chip.watched{background:#c9f0d6;font-weight:600}.chip.party{background:#ffd2a8;font-weight:600}.chip.super{background:#ffe08a}.chip.rare{background:#e3d7ff}.chip.song{background:#ffd6e7}
.links{display:flex;flex-wrap:wrap;gap:6px;flex-basis:100%}
.links a{display:inline-block;padding:7px 10px;border-radius:16px;background:#2f5fd0;color:#fff;text-decoration:none;font-size:13px;overflow-wrap:anywhere}
.links a.site{background:#e8ecf3;color:#1d2330}
`;

const MARK = { super: "★", rare: "◆" } as const;

/** A find in the reader's language when the digest names the resource, else as the maps named it. */
function findName(find: DigestFind, locale: Locale): string {
  const entry = find.type === undefined || find.id === undefined ? null : findResource(find.type, find.id);
  return (entry && pickName(entry.name, locale)) ?? find.name;
}

function Finds({ digest, party, lang: { t, locale } }: { digest: RefreshDigest | null; party: PastRefresh["party"]; lang: PageLang }) {
  if (party === "record") return <span class="muted">{t.partyNotRefreshed}</span>;
  if (digest === null) return <span class="muted">{t.findsNotKept}</span>;
  if (digest.partial) return <span class="muted">{t.noHarvestMapsInRefresh}</span>;
  if (digest.rare.length + digest.newSongs.length === 0) return <span class="muted">{t.nothingRare}</span>;
  return (
    <span class="chips">
      {digest.rare.map((find) => (
        <span class={`chip ${find.tier}`}>{`${MARK[find.tier]} ${findName(find, locale)} ×${find.total}`}</span>
      ))}
      {digest.newSongs.map((song) => (
        <span class="chip song">{`♪ ${musicRecordTitle(song.id, locale) ?? song.title ?? t.recordN(song.id)} · ${t.newSong}`}</span>
      ))}
      {digest.more > 0 ? <span class="chip">{`+${digest.more}`}</span> : null}
    </span>
  );
}

const SITE_MAP = /^site_(\d+)\.png$/;

/** A map link's label in the reader's language: the overview, or the site's name (as the maps named it for a site the catalogue lacks). */
function mapLabel(map: PastRefresh["maps"][number], refresh: PastRefresh, { t, locale }: PageLang): string {
  if (map.file === "overview.png") return t.overview;
  const siteId = Number(SITE_MAP.exec(map.file)?.[1] ?? Number.NaN);
  if (!Number.isInteger(siteId)) return map.label;
  return knownSiteName(siteId, locale) ?? refresh.digest?.sites.find((site) => site.siteId === siteId)?.name ?? t.siteN(siteId);
}

function Refresh({ refresh, lang, watched }: { refresh: PastRefresh; lang: PageLang; watched: WatchMatch[] }) {
  return (
    <li class="refresh">
      <Time ms={refresh.receivedAt} zone={lang.zoneOf(refresh.region)} day={false} />
      {refresh.party === null ? null : <span class="chip party">{refresh.party === "record" ? lang.t.kindPartyDelivery : lang.t.kindPartyRefresh}</span>}
      {watched.length === 0 ? null : (
        <span class="chips">
          {watched.map((match) => (
            <span class="chip watched">{`◉ ${matchText(match, lang.locale)}`}</span>
          ))}
        </span>
      )}
      <Finds digest={refresh.digest} party={refresh.party} lang={lang} />
      {refresh.maps.length === 0 ? null : (
        <span class="links">
          {refresh.maps.map((map) => (
            <a class={map.file === "overview.png" ? "overview" : "site"} href={`/maps/${refresh.token}/${map.file}`} target="_blank" rel="noopener">
              {mapLabel(map, refresh, lang)}
            </a>
          ))}
        </span>
      )}
    </li>
  );
}

/** Refreshes (newest first) grouped by their day in their zone, the day written in the page's language. */
function byDay(refreshes: PastRefresh[], lang: PageLang): { day: string; refreshes: PastRefresh[] }[] {
  const days: { day: string; refreshes: PastRefresh[] }[] = [];
  const formats = new Map<string, Intl.DateTimeFormat>();
  for (const refresh of refreshes) {
    const timeZone = lang.zoneOf(refresh.region);
    let day = formats.get(timeZone);
    if (day === undefined) formats.set(timeZone, (day = new Intl.DateTimeFormat(lang.locale, { timeZone, weekday: "short", day: "numeric", month: "short" })));
    const label = day.format(refresh.receivedAt);
    if (days.at(-1)?.day !== label) days.push({ day: label, refreshes: [] });
    days.at(-1)!.refreshes.push(refresh);
  }
  return days;
}

/** Refreshes shown open; the older ones are folded (a month of them is several phone screens). */
const SHOWN_REFRESHES = 3;

/** `watched`: each refresh's matches of the player's watch rules (by save id). */
export function HistorySection({ refreshes, lang, watched }: { refreshes: PastRefresh[]; lang: PageLang; watched?: Map<number, WatchMatch[]> }) {
  const { t } = lang;
  const days = (shown: PastRefresh[]) =>
    byDay(shown, lang).map((group) => (
      <>
        <h3>{group.day}</h3>
        <ol class="history">
          {group.refreshes.map((refresh) => (
            <Refresh refresh={refresh} lang={lang} watched={watched?.get(refresh.saveId) ?? []} />
          ))}
        </ol>
      </>
    ));
  const older = refreshes.slice(SHOWN_REFRESHES);
  return (
    <Section title={t.lastDays(HISTORY_DAYS)}>
      <style>{CSS}</style>
      <p class="muted">{refreshes.length === 0 ? t.noRefreshes(HISTORY_DAYS) : t.refreshCount(refreshes.length)}</p>
      <div class="history" id="history">
        {days(refreshes.slice(0, SHOWN_REFRESHES))}
        {older.length === 0 ? null : (
          <details class="older">
            <summary>{t.olderRefreshes(older.length)}</summary>
            {days(older)}
          </details>
        )}
      </div>
    </Section>
  );
}
