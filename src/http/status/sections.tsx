/** @jsxImportSource hono/jsx */
/** The sections of the status page, each a small component over one read-side query. */
import type { QueueSnapshot, DayCounts, PlayerMaps, failedDeliveries, failedJobs, recentReports, recentSaves } from "./queries.ts";
import { bytesText, Section, TableSection, Tag, Time } from "./layout.tsx";

export interface Overview {
  counts: DayCounts;
  queue: QueueSnapshot;
  databaseBytes: number;
  disk: { freeBytes: number; totalBytes: number } | null;
  floorBytes: number;
}

export function OverviewSection({ counts, queue, databaseBytes, disk, floorBytes }: Overview) {
  const stats: [string, string | number][] = [
    ["saves (24 h)", counts.saves],
    ["reports (24 h)", counts.reports],
    ["pushes sent (24 h)", counts.deliveriesSent],
    ["pushes failed (24 h)", counts.deliveriesFailed],
    ["jobs failed (24 h)", counts.jobsFailed],
    ["queue depth", queue.depth],
    ["oldest queued", queue.oldestQueuedAgeMs === null ? "–" : `${Math.round(queue.oldestQueuedAgeMs / 1000)} s`],
    ["database", bytesText(databaseBytes)],
    ["disk used", disk === null ? "–" : `${bytesText(disk.totalBytes - disk.freeBytes)} / ${bytesText(disk.totalBytes)}`],
    [`disk free (floor ${bytesText(floorBytes)})`, bytesText(disk?.freeBytes ?? null)],
  ];
  return (
    <Section title="Last 24 hours">
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

/** `playerHref`: where a player's id links to (the owner's player page); none on a player's own page. */
export function MapsSection({ players, playerHref }: { players: PlayerMaps[]; playerHref?: (playerId: string) => string }) {
  return (
    <Section title="Latest maps">
      {players.length === 0 ? <p class="muted">No maps yet.</p> : null}
      {players.map((player) => (
        <div class="player">
          <div>
            <b>{playerHref === undefined ? player.playerId : <a href={playerHref(player.playerId)}>{player.playerId}</a>}</b>{" "}
            <span class="muted"><Time ms={player.createdAt} /></span>
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

/** A save that is not a full MySekai save says so: a partial refresh draws and pushes nothing. */
function saveKind(row: { dataType: string; partial: boolean }): string | null {
  if (row.dataType === "mysekai_birthday_party") return "birthday party";
  return row.partial ? "partial refresh (no harvest maps)" : null;
}

export function SavesSection({ rows }: { rows: ReturnType<typeof recentSaves> }) {
  return (
    <TableSection title="Recent saves" empty={rows.length === 0 ? "No saves yet." : null} head={["UTC · source", "player", "state"]}>
      {rows.map((row) => (
        <tr>
          <td><Time ms={row.receivedAt} /><br /><span class="muted">{row.source}</span></td>
          <td class="id">{row.playerId}{saveKind(row) === null ? null : <><br /><span class="muted">{saveKind(row)}</span></>}</td>
          <td>{row.stage === null || row.stage === "done" ? null : `${row.stage} `}<Tag value={row.state} /></td>
        </tr>
      ))}
    </TableSection>
  );
}

function RetryButton({ saveId, label = "retry" }: { saveId: number | null; label?: string }) {
  return (
    <form class="inline" method="post" action="/status/retry">
      {saveId === null ? null : <input type="hidden" name="save" value={String(saveId)} />}
      <button type="submit">{label}</button>
    </form>
  );
}

type Redact = (text: string | null) => string;

export function FailuresSection({ jobs, deliveries, redact }: { jobs: ReturnType<typeof failedJobs>; deliveries: ReturnType<typeof failedDeliveries>; redact: Redact }) {
  if (jobs.length === 0 && deliveries.length === 0) return <Section title="Failures"><p class="muted">Nothing failed.</p></Section>;
  return (
    <Section title="Failures">
      <RetryButton saveId={null} label="retry everything that failed" />
      <div class="scroll">
        <table>
          <tr><th>what</th><th>player</th><th>error</th><th></th></tr>
          {jobs.map((job) => (
            <tr>
              <td>{job.saveId === null ? `report ${job.reportId}` : `save ${job.saveId}`} · {job.stage}<br /><span class="muted"><Time ms={job.updatedAt} /></span></td>
              <td class="id">{job.playerId ?? "–"}</td>
              <td class="err">{redact(job.lastError)}</td>
              <td>{job.saveId === null ? null : <RetryButton saveId={job.saveId} />}</td>
            </tr>
          ))}
          {deliveries.map((delivery) => (
            <tr>
              <td>push {delivery.channel}/{delivery.target} · save {delivery.saveId}<br /><span class="muted">{delivery.attempts} attempts</span></td>
              <td class="id">{delivery.playerId}</td>
              <td class="err">{redact(delivery.lastError)}</td>
              <td><RetryButton saveId={delivery.saveId} /></td>
            </tr>
          ))}
        </table>
      </div>
    </Section>
  );
}

export function ReportsSection({ rows }: { rows: ReturnType<typeof recentReports> }) {
  return (
    <TableSection title="Recent reports" empty={rows.length === 0 ? "No reports yet." : null} head={["UTC", "shape", "candidates", "outcome"]}>
      {rows.map((row) => (
        <tr>
          <td><Time ms={row.receivedAt} /></td>
          <td>{row.shape}</td>
          <td>{row.candidates}</td>
          <td><Tag value={row.outcome ?? "pending"} />{row.saveId === null ? null : <span class="muted"> save {row.saveId}</span>}</td>
        </tr>
      ))}
    </TableSection>
  );
}
