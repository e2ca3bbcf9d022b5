/**
 * The pages' read model, written once for both stores over their statements (src/db/dialect/): every query the status
 * page, /healthz, /metrics, the CLI's `jobs` and the players' pages show. Reads only; each table's writes stay
 * with its owner.
 */
import { JOB_STATES, type JobState } from "../../store/model/jobs.ts";
import { HISTORY_ROWS, historySince, JOB_LIST_ROWS, MAP_PLAYERS, PAGE_ROWS, QUEUED, UNKNOWN_RESOURCE_ARCHIVES, type DayCounts, type FailedDelivery, type FailedJob, type ListedJob, type PlayerMaps, type RecentReport, type RecentSave, type RetryingDelivery, type RetryingJob } from "../../store/model/pages.ts";
import type { PageReads } from "../../store/ports/pages.ts";
import { SAVE_ORIGIN_COLUMNS } from "../../store/model/saves.ts";
import { HISTORY_QUERY, pastRefresh } from "./player-history.ts";
import { first, literals, read, type Reader } from "../dialect/statements.ts";

type ArchiveWithSave = Omit<PlayerMaps, "pngs"> & { files: string[] };
const archiveKinds = { createdAt: "int", receivedAt: "int", files: "json" } as const;
const ARCHIVE_WITH_SAVE = `a.player_id AS "playerId", a.created_at AS "createdAt", s.received_at AS "receivedAt", s.region, a.token, a.files`;
/**
 * The "latest maps" are a player's newest harvest state's: a full MySekai save, or a birthday party's delivery that
 * refreshed the harvest maps; a partial refresh and a delivery that refreshed nothing (no maps) are left to the
 * history, which marks them.
 */
const FULL_SAVE = `s.partial = FALSE`;

/** Each player's newest full save's archive, newest players first. */
const LATEST_MAPS = read<ArchiveWithSave>(
  `SELECT "playerId", "createdAt", "receivedAt", region, token, files FROM (
     SELECT ${ARCHIVE_WITH_SAVE}, row_number() OVER (PARTITION BY a.player_id ORDER BY a.created_at DESC) AS "rank"
     FROM archives a JOIN saves s ON s.id = a.save_id WHERE ${FULL_SAVE}) newest
   WHERE "rank" = 1 ORDER BY "createdAt" DESC LIMIT $1`,
  archiveKinds,
);
/** Exported for the test that holds it to archives_player_idx. */
export const MAPS_OF_PLAYER = read<ArchiveWithSave>(
  `SELECT ${ARCHIVE_WITH_SAVE} FROM archives a JOIN saves s ON s.id = a.save_id
   WHERE a.player_id = $1 AND ${FULL_SAVE} ORDER BY a.created_at DESC LIMIT $2`,
  archiveKinds,
);
const ARCHIVE_BY_TOKEN = read<{ relPath: string; files: string[] }>(`SELECT rel_path AS "relPath", files FROM archives WHERE token = $1`, { files: "json" });

const JOB_COUNTS = read<{ state: JobState; count: number }>(`SELECT state, count(*) AS "count" FROM jobs GROUP BY state`, { count: "int" });
const OLDEST_QUEUED = read<{ at: number | null }>(`SELECT min(created_at) AS "at" FROM jobs WHERE state IN (${literals(QUEUED)})`, { at: "int" });
/** A save's whole origin, as stored. */
const SAVE_ORIGIN = Object.entries(SAVE_ORIGIN_COLUMNS).map(([field, column]) => `s.${column} AS "${field}"`).join(", ");
const RECENT_SAVES = read<RecentSave>(
  `SELECT s.id, s.received_at AS "receivedAt", s.player_id AS "playerId", s.source, ${SAVE_ORIGIN}, s.partial, j.stage, j.state
   FROM saves s LEFT JOIN jobs j ON j.save_id = s.id ORDER BY s.id DESC LIMIT $1`,
  { receivedAt: "int", partial: "bool" },
);
const DELIVERY_WITH_PLAYER = `d.id, d.save_id AS "saveId", d.channel, d.target, d.last_error AS "lastError", d.attempts, s.player_id AS "playerId"`;
const FAILED_DELIVERIES = read<FailedDelivery>(`SELECT ${DELIVERY_WITH_PLAYER} FROM deliveries d JOIN saves s ON s.id = d.save_id WHERE d.state = 'failed' ORDER BY d.id DESC LIMIT $1`);
/** Pushes a channel refused for now (a 5xx, a timeout), waiting for their next try, the soonest first. */
const RETRYING_DELIVERIES = read<RetryingDelivery>(
  `SELECT ${DELIVERY_WITH_PLAYER}, d.next_attempt_at AS "nextAttemptAt", s.region FROM deliveries d JOIN saves s ON s.id = d.save_id
   WHERE d.state = 'pending' AND d.last_error IS NOT NULL ORDER BY d.next_attempt_at, d.id LIMIT $1`,
  { nextAttemptAt: "int" },
);
const JOB_WITH_SAVE = `j.id, j.save_id AS "saveId", j.report_id AS "reportId", j.stage, j.last_error AS "lastError", s.player_id AS "playerId", s.region`;
const FAILED_JOBS = read<FailedJob>(
  `SELECT ${JOB_WITH_SAVE}, j.updated_at AS "updatedAt" FROM jobs j LEFT JOIN saves s ON s.id = j.save_id WHERE j.state = 'failed' ORDER BY j.updated_at DESC LIMIT $1`,
  { updatedAt: "int" },
);
/** Jobs waiting for their next try after an error of their own, the soonest first (a push's error is its delivery's). */
const RETRYING_JOBS = read<RetryingJob>(
  `SELECT ${JOB_WITH_SAVE}, j.attempts, j.run_at AS "runAt" FROM jobs j LEFT JOIN saves s ON s.id = j.save_id
   WHERE j.state = 'pending_retry' AND j.last_error IS NOT NULL ORDER BY j.run_at, j.id LIMIT $1`,
  { runAt: "int" },
);
/** The owner CLI's `jobs`: the newest jobs (of one state: $1, or all: '') with their save's player. */
const JOB_LIST = read<ListedJob>(
  `SELECT j.id, j.save_id AS "saveId", j.report_id AS "reportId", s.player_id AS "playerId", j.stage, j.state, j.attempts, j.run_at AS "runAt", j.last_error AS "lastError"
   FROM jobs j LEFT JOIN saves s ON s.id = j.save_id WHERE ($1 = '' OR j.state = $1) ORDER BY j.id DESC LIMIT $2`,
  { runAt: "int" },
);
const RECENT_REPORTS = read<RecentReport>(
  `SELECT id, received_at AS "receivedAt", shape, candidate_count AS "candidates", outcome, save_id AS "saveId" FROM reports ORDER BY id DESC LIMIT $1`,
  { receivedAt: "int" },
);
const COUNTS_SINCE = read<DayCounts>(
  `SELECT (SELECT count(*) FROM saves WHERE received_at >= $1) AS "saves",
     (SELECT count(*) FROM reports WHERE received_at >= $1) AS "reports",
     (SELECT count(*) FROM deliveries WHERE state = 'sent' AND sent_at >= $1) AS "deliveriesSent",
     (SELECT count(*) FROM deliveries WHERE state = 'failed' AND created_at >= $1) AS "deliveriesFailed",
     (SELECT count(*) FROM jobs WHERE state = 'failed' AND updated_at >= $1) AS "jobsFailed"`,
  { saves: "int", reports: "int", deliveriesSent: "int", deliveriesFailed: "int", jobsFailed: "int" },
);

/**
 * The digests of the newest $2 archives (by the primary key: the newest saves), those made since $1: each lists the
 * resources the catalogue did not know. Reads at most $2 rows whatever the table holds.
 */
const RECENT_DIGESTS = read<{ digest: { unknown?: string[] } | null }>(
  `SELECT digest FROM (SELECT digest, created_at FROM archives ORDER BY save_id DESC LIMIT $2) newest WHERE created_at >= $1`,
  { digest: "json" },
);

/** An archive row with its save's time and region, as the maps sections show it (or nothing without maps). */
function withPngs({ files, ...row }: ArchiveWithSave): PlayerMaps[] {
  const pngs = files.filter((name) => name.endsWith(".png"));
  return pngs.length > 0 ? [{ ...row, pngs }] : [];
}

/** The pages' reads over a store's Reader; `databaseBytes` is the one thing each store asks its own way. */
export function pageReads(reader: Reader, databaseBytes: () => Promise<number>): PageReads {
  return {
    queueSnapshot: async (now) => {
      const [counts, oldest] = await Promise.all([reader.all(JOB_COUNTS, []), first(reader, OLDEST_QUEUED, [])]);
      const byState = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
      for (const row of counts) byState[row.state] = row.count;
      const at = oldest?.at ?? null;
      return { byState, depth: QUEUED.reduce((sum, state) => sum + byState[state], 0), oldestQueuedAgeMs: at === null ? null : Math.max(0, now - at) };
    },
    recentSaves: (limit = PAGE_ROWS) => reader.all(RECENT_SAVES, [limit]),
    latestMaps: async (players = MAP_PLAYERS) => (await reader.all(LATEST_MAPS, [players])).flatMap(withPngs),
    mapsOfPlayer: async (playerId, limit = 1) => (await reader.all(MAPS_OF_PLAYER, [playerId, limit])).flatMap(withPngs),
    archiveByToken: (token) => first(reader, ARCHIVE_BY_TOKEN, [token]),
    failedDeliveries: (limit = PAGE_ROWS) => reader.all(FAILED_DELIVERIES, [limit]),
    failedJobs: (limit = PAGE_ROWS) => reader.all(FAILED_JOBS, [limit]),
    retryingJobs: (limit = PAGE_ROWS) => reader.all(RETRYING_JOBS, [limit]),
    retryingDeliveries: (limit = PAGE_ROWS) => reader.all(RETRYING_DELIVERIES, [limit]),
    jobList: (state, limit = JOB_LIST_ROWS) => reader.all(JOB_LIST, [state ?? "", limit]),
    recentReports: (limit = PAGE_ROWS) => reader.all(RECENT_REPORTS, [limit]),
    countsSince: async (since) => (await first(reader, COUNTS_SINCE, [since]))!,
    databaseBytes,
    unknownResourcesSince: async (since) => [...new Set((await reader.all(RECENT_DIGESTS, [since, UNKNOWN_RESOURCE_ARCHIVES])).flatMap((row) => row.digest?.unknown ?? []))],
    history: async (playerId, now = Date.now()) => (await reader.all(HISTORY_QUERY, [playerId, historySince(now), HISTORY_ROWS])).map(pastRefresh),
  };
}
