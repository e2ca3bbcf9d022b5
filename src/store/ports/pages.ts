/**
 * What the owner's pages, /healthz, /metrics, the players' /p/<token> page and /maps/<token>/… read: async, so
 * that a hub's PostgreSQL can stand behind them. Both stores' reads are written once in src/db/read-models/ and
 * pass tests/contract/read-models.*.contract.test.ts and player-reads.contract.test.ts.
 */
import type { JobState } from "../model/jobs.ts";
import type {
  CaptureHealth,
  DayCounts,
  FailedDelivery,
  FailedJob,
  ListedJob,
  PastRefresh,
  PlayerMaps,
  QueueSnapshot,
  RecentReport,
  RecentSave,
  RetryingDelivery,
  RetryingJob,
  SpawnArchive,
} from "../model/pages.ts";

export interface PageReads {
  queueSnapshot(now: number): Promise<QueueSnapshot>;
  /** The newest saves with their job's stage and state. */
  recentSaves(limit?: number): Promise<RecentSave[]>;
  /** Each player's newest full save's archive with maps, newest players first. */
  latestMaps(players?: number): Promise<PlayerMaps[]>;
  /** One player's newest full saves' archives with maps, newest first. */
  mapsOfPlayer(playerId: string, limit?: number): Promise<PlayerMaps[]>;
  /** The archive a /maps/<token>/… URL names (its folder and files); null for an unknown token. */
  archiveByToken(token: string): Promise<{ relPath: string; files: string[] } | null>;
  failedDeliveries(limit?: number): Promise<FailedDelivery[]>;
  failedJobs(limit?: number): Promise<FailedJob[]>;
  /** Jobs waiting for their next try after an error of their own, the soonest first. */
  retryingJobs(limit?: number): Promise<RetryingJob[]>;
  /** Pushes waiting for their next try after an error, the soonest first. */
  retryingDeliveries(limit?: number): Promise<RetryingDelivery[]>;
  /** The newest jobs, of one state or all, with their save's player (the owner CLI's `jobs`). */
  jobList(state: JobState | undefined, limit?: number): Promise<ListedJob[]>;
  recentReports(limit?: number): Promise<RecentReport[]>;
  countsSince(since: number): Promise<DayCounts>;
  /** Bytes the database holds. */
  databaseBytes(): Promise<number>;
  /** `type:id` of the resources the catalogue did not know, in the digests of the archives made since `since` (newest UNKNOWN_RESOURCE_ARCHIVES), once each. */
  unknownResourcesSince(since: number): Promise<string[]>;
  /** The player's archived refreshes of the last HISTORY_DAYS days, newest first. */
  history(playerId: string, now?: number): Promise<PastRefresh[]>;
}

/** What the player's page shows of their capture: the newest save that did not fail, and the newest that did. */
export interface CaptureHealthReads {
  captureHealth(playerId: string): Promise<CaptureHealth>;
}

/** The archives a player's month of spawns is read from. */
export interface SpawnReads {
  /** The player's archives received since `since`, newest first, at most HISTORY_ROWS. */
  archivesSince(playerId: string, since: number): Promise<SpawnArchive[]>;
}
