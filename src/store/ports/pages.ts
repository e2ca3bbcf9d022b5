/**
 * What the owner's pages, /healthz, /metrics, the players' /p/<token> page and /maps/<token>/… read, declared where they are used: one
 * async interface, so that a hub's PostgreSQL can stand behind it. SQLite's implementation wraps the queries of
 * queries.ts and db/player-history.ts unchanged; PostgreSQL's is src/db/pg/read-models/pages.ts. Both pass
 * tests/unit/read-models.contract.test.ts.
 */
import type { Db } from "../../db/open.ts";
import { playerHistory, type PastRefresh } from "../../db/read-models/player-history.ts";
import {
  archiveByToken,
  countsSince,
  databaseBytes,
  failedDeliveries,
  failedJobs,
  jobList,
  latestMaps,
  mapsOfPlayer,
  queueSnapshot,
  recentReports,
  recentSaves,
  retryingDeliveries,
  retryingJobs,
  type DayCounts,
  type PlayerMaps,
  type QueueSnapshot,
} from "../../db/read-models/sqlite-pages.ts";
import type { JobState } from "../model/jobs.ts";

export type RecentSave = ReturnType<typeof recentSaves>[number];
export type FailedJob = ReturnType<typeof failedJobs>[number];
export type RetryingJob = ReturnType<typeof retryingJobs>[number];
export type RetryingDelivery = ReturnType<typeof retryingDeliveries>[number];
export type ListedJob = ReturnType<typeof jobList>[number];
export type FailedDelivery = ReturnType<typeof failedDeliveries>[number];
export type RecentReport = ReturnType<typeof recentReports>[number];

export interface PageReads {
  queueSnapshot(now: number): Promise<QueueSnapshot>;
  /** The newest saves with their job's stage and state. */
  recentSaves(limit?: number): Promise<RecentSave[]>;
  /** Each player's newest archive with maps, newest players first. */
  latestMaps(players?: number): Promise<PlayerMaps[]>;
  /** One player's newest archives with maps, newest first. */
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
  /** The player's archived refreshes of the last HISTORY_DAYS days, newest first. */
  history(playerId: string, now?: number): Promise<PastRefresh[]>;
}

export function sqlitePageReads(db: Db): PageReads {
  return {
    queueSnapshot: async (now) => queueSnapshot(db, now),
    recentSaves: async (limit) => recentSaves(db, limit),
    latestMaps: async (players) => latestMaps(db, players),
    mapsOfPlayer: async (playerId, limit) => mapsOfPlayer(db, playerId, limit),
    archiveByToken: async (token) => archiveByToken(db, token),
    failedDeliveries: async (limit) => failedDeliveries(db, limit),
    failedJobs: async (limit) => failedJobs(db, limit),
    retryingJobs: async (limit) => retryingJobs(db, limit),
    retryingDeliveries: async (limit) => retryingDeliveries(db, limit),
    jobList: async (state, limit) => jobList(db, state, limit),
    recentReports: async (limit) => recentReports(db, limit),
    countsSince: async (since) => countsSince(db, since),
    databaseBytes: async () => databaseBytes(db),
    history: async (playerId, now) => playerHistory(db, playerId, now),
  };
}
