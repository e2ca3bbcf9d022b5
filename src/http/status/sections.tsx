/** @jsxImportSource hono/jsx */
/** The sections of the status page, each a small component over one read-side query. */
import type { PageLang } from "../page-lang.ts";
import { ErrorCell } from "./error-cell.tsx";
import { bytesText, Section, TableSection, Tag, Time } from "./layout.tsx";
import type { QueueSnapshot, DayCounts, PlayerMaps, FailedDelivery, FailedJob, RecentReport, RecentSave, RetryingDelivery, RetryingJob } from "../../store/model/pages.ts";

export interface Overview {
  counts: DayCounts;
  queue: QueueSnapshot;
  databaseBytes: number;
  disk: { freeBytes: number; totalBytes: number } | null;
  floorBytes: number;
}

export function OverviewSection({ counts, queue, databaseBytes, disk, floorBytes, lang: { t } }: Overview & { lang: PageLang }) {
  const stats: [string, string | number][] = [
    [t.statSaves, counts.saves],
    [t.statReports, counts.reports],
    [t.statPushesSent, counts.deliveriesSent],
    [t.statPushesFailed, counts.deliveriesFailed],
    [t.statJobsFailed, counts.jobsFailed],
    [t.statQueueDepth, queue.depth],
    [t.statOldestQueued, queue.oldestQueuedAgeMs === null ? "–" : t.seconds(Math.round(queue.oldestQueuedAgeMs / 1000))],
    [t.statDatabase, bytesText(databaseBytes)],
    [t.statDiskUsed, disk === null ? "–" : `${bytesText(disk.totalBytes - disk.freeBytes)} / ${bytesText(disk.totalBytes)}`],
    [t.statDiskFree(bytesText(floorBytes)), bytesText(disk?.freeBytes ?? null)],
  ];
  return (
    <Section title={t.last24h}>
      <div class="stats">
        {stats.map(([label, value]) => (
          <div>
            <b>{value}</b>
            <span class="muted">{label}</span>
          </div>
        ))}
      </div>
    </Section>
  );
}

/** Player id → the name the owner gave (`players add --name`). */
export type PlayerNames = ReadonlyMap<string, string>;

/** `playerHref`: where a player's id links to (the owner's player page); none on a player's own page. */
export function MapsSection({ players, playerHref, names, lang }: { players: PlayerMaps[]; playerHref?: (playerId: string) => string; names?: PlayerNames; lang: PageLang }) {
  return (
    <Section title={lang.t.latestMaps}>
      {players.length === 0 ? <p class="muted">{lang.t.noMaps}</p> : null}
      {players.map((player) => (
        <div class="player">
          <div>
            <b translate="no">{playerHref === undefined ? player.playerId : <a href={playerHref(player.playerId)}>{names?.get(player.playerId) ?? player.playerId}</a>}</b>{" "}
            {playerHref !== undefined && names?.has(player.playerId) ? <span class="muted id" translate="no">{player.playerId} </span> : null}
            <span class="muted"><Time ms={player.receivedAt} zone={lang.zoneOf(player.region)} /></span>
          </div>
          <div class="maps">
            {player.pngs.map((name) => (
              <a href={`/maps/${player.token}/${name}`} target="_blank" rel="noopener">
                <img src={`/maps/${player.token}/${name}`} alt={`${player.playerId} ${name}`} loading="lazy" />
              </a>
            ))}
          </div>
        </div>
      ))}
    </Section>
  );
}

/** A save that is not a full MySekai save says so: a partial refresh, and a party delivery that refreshed nothing, draw and push nothing. */
function saveKind(row: { dataType: string; partial: boolean }, t: PageLang["t"]): string | null {
  if (row.dataType === "mysekai_birthday_party") return row.partial ? t.kindPartyDelivery : t.kindPartyRefresh;
  return row.partial ? t.kindPartial : null;
}

export function SavesSection({ rows, names, lang: { t, zoneOf } }: { rows: RecentSave[]; names: PlayerNames; lang: PageLang }) {
  return (
    <TableSection title={t.recentSaves} empty={rows.length === 0 ? t.noSaves : null} head={[t.headTimeSource, t.headPlayer, t.headState]}>
      {rows.map((row) => (
        <tr>
          <td><Time ms={row.receivedAt} zone={zoneOf(row.region)} /><br /><span class="muted">{named(t.sources, row.source)}</span></td>
          <td class="id">
            <span translate="no">{names.has(row.playerId) ? <>{names.get(row.playerId)}<br /><span class="muted">{row.playerId}</span></> : row.playerId}</span>
            {saveKind(row, t) === null ? null : <><br /><span class="muted">{saveKind(row, t)}</span></>}
          </td>
          <td>{row.stage === null || row.stage === "done" ? null : `${named(t.stages, row.stage)} `}<Tag value={row.state} names={t.states} /></td>
        </tr>
      ))}
    </TableSection>
  );
}

/** A stored value (a stage, a state, a source) in the page's words; a value the catalogue lacks as it is. */
const named = (names: Record<string, string>, value: string) => names[value] ?? value;

function RetryButton({ saveId, label }: { saveId: number | null; label: string }) {
  return (
    <form class="inline" method="post" action="/status/retry">
      {saveId === null ? null : <input type="hidden" name="save" value={String(saveId)} />}
      <button type="submit">{label}</button>
    </form>
  );
}

type Redact = (text: string | null) => string;

interface Failures {
  jobs: FailedJob[];
  deliveries: FailedDelivery[];
  /** Jobs and pushes that met an error and wait for their next try (a channel down for now): not failed, not hidden either. */
  retrying: { jobs: RetryingJob[]; deliveries: RetryingDelivery[] };
  redact: Redact;
  lang: PageLang;
}

export function FailuresSection({ jobs, deliveries, retrying, redact, lang }: Failures) {
  const { t, zoneOf } = lang;
  const failed = jobs.length + deliveries.length > 0;
  if (!failed && retrying.jobs.length + retrying.deliveries.length === 0) return <Section title={t.failures}><p class="muted">{t.nothingFailed}</p></Section>;
  return (
    <Section title={t.failures}>
      {failed ? <RetryButton saveId={null} label={t.retryAll} /> : null}
      <div class="scroll">
        <table>
          <tr><th>{t.headWhat}</th><th>{t.headPlayer}</th><th>{t.headError}</th><th></th></tr>
          {jobs.map((job) => (
            <tr>
              <td>{job.saveId === null ? t.reportN(job.reportId) : t.saveN(job.saveId)} · {named(t.stages, job.stage)}<br /><span class="muted"><Time ms={job.updatedAt} zone={job.saveId === null ? lang.zone : zoneOf(job.region)} /></span></td>
              <td class="id" translate="no">{job.playerId ?? "–"}</td>
              <ErrorCell raw={redact(job.lastError)} t={t} />
              <td>{job.saveId === null ? null : <RetryButton saveId={job.saveId} label={t.retry} />}</td>
            </tr>
          ))}
          {retrying.jobs.map((job) => (
            <tr>
              <td>{job.saveId === null ? t.reportN(job.reportId) : t.saveN(job.saveId)} · {named(t.stages, job.stage)}<br /><span class="muted">{t.waitingRetryAt} <Time ms={job.runAt} zone={job.saveId === null ? lang.zone : zoneOf(job.region)} /></span></td>
              <td class="id" translate="no">{job.playerId ?? "–"}</td>
              <ErrorCell raw={redact(job.lastError)} t={t} />
              <td></td>
            </tr>
          ))}
          {retrying.deliveries.map((delivery) => (
            <tr>
              <td>{t.pushTo(`${delivery.channel}/${delivery.target}`)} · {t.saveN(delivery.saveId)}<br /><span class="muted">{t.waitingRetryAt} <Time ms={delivery.nextAttemptAt} zone={zoneOf(delivery.region)} /> ({t.attempts(delivery.attempts)})</span></td>
              <td class="id" translate="no">{delivery.playerId}</td>
              <ErrorCell raw={redact(delivery.lastError)} t={t} />
              <td></td>
            </tr>
          ))}
          {deliveries.map((delivery) => (
            <tr>
              <td>{t.pushTo(`${delivery.channel}/${delivery.target}`)} · {t.saveN(delivery.saveId)}<br /><span class="muted">{t.attempts(delivery.attempts)}</span></td>
              <td class="id" translate="no">{delivery.playerId}</td>
              <ErrorCell raw={redact(delivery.lastError)} t={t} />
              <td><RetryButton saveId={delivery.saveId} label={t.retry} /></td>
            </tr>
          ))}
        </table>
      </div>
    </Section>
  );
}

export function ReportsSection({ rows, lang: { t, zone } }: { rows: RecentReport[]; lang: PageLang }) {
  return (
    <TableSection title={t.recentReports} empty={rows.length === 0 ? t.noReports : null} head={[t.headTime, t.headShape, t.headCandidates, t.headOutcome]}>
      {rows.map((row) => (
        <tr>
          <td><Time ms={row.receivedAt} zone={zone} /></td>
          <td translate="no">{row.shape}</td>
          <td>{row.candidates}</td>
          <td><Tag value={row.outcome ?? "pending"} names={t.outcomes} />{row.saveId === null ? null : <span class="muted"> {t.saveN(row.saveId)}</span>}</td>
        </tr>
      ))}
    </TableSection>
  );
}
