/**
 * What the owner's pages, /healthz, /metrics, the CLI and the players' pages show, as plain records: the read
 * models (src/db/read-models/) return them from either store, the pages (src/http/) render them.
 */
import type { Region } from "../../capture/regions.ts";
import type { RefreshDigest } from "../../maps/refresh-digest.ts";
import type { JobStage, JobState } from "./jobs.ts";
import type { SaveOrigin } from "./saves.ts";

/** Rows of each list on the owner's page, and players in its maps section. */
export const PAGE_ROWS = 20;
export const MAP_PLAYERS = 12;
/** The owner CLI's `jobs` lists at most this many. */
export const JOB_LIST_ROWS = 200;
/** Jobs not finished: they count in the queue's depth. */
export const QUEUED: readonly JobState[] = ["pending", "pending_retry", "running", "waiting_for_key"];

/** The players' history (and month of spawns) covers this many days. */
export const HISTORY_DAYS = 30;
/** Two refreshes a day for HISTORY_DAYS with room to spare: a page never grows past this. */
export const HISTORY_ROWS = 120;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The oldest receivedAt the history shows at `now`. */
export const historySince = (now: number) => now - HISTORY_DAYS * DAY_MS;

export interface QueueSnapshot {
  byState: Record<JobState, number>;
  /** Jobs not finished: pending, pending_retry, running, waiting_for_key. */
  depth: number;
  oldestQueuedAgeMs: number | null;
}

export interface DayCounts {
  saves: number;
  reports: number;
  deliveriesSent: number;
  deliveriesFailed: number;
  jobsFailed: number;
}

/** The newest saves with their job's stage and state (none yet: null). */
export interface RecentSave extends SaveOrigin {
  id: number;
  receivedAt: number;
  playerId: string;
  source: "upload" | "report";
  partial: boolean;
  stage: JobStage | null;
  state: JobState | null;
}

export interface FailedJob {
  id: number;
  saveId: number | null;
  reportId: number | null;
  stage: JobStage;
  lastError: string | null;
  updatedAt: number;
  playerId: string | null;
  region: Region | null;
}

export interface RetryingJob extends Omit<FailedJob, "updatedAt"> {
  attempts: number;
  runAt: number;
}

export interface ListedJob {
  id: number;
  saveId: number | null;
  reportId: number | null;
  playerId: string | null;
  stage: JobStage;
  state: JobState;
  attempts: number;
  runAt: number;
  lastError: string | null;
}

export interface FailedDelivery {
  id: number;
  saveId: number;
  channel: string;
  target: string;
  lastError: string | null;
  attempts: number;
  playerId: string;
}

export interface RetryingDelivery extends FailedDelivery {
  nextAttemptAt: number;
  region: Region | null;
}

export type ReportOutcome = "save" | "duplicate" | "no_save" | "empty_bodies" | "partial_save";

export interface RecentReport {
  id: number;
  receivedAt: number;
  shape: string;
  candidates: number;
  outcome: ReportOutcome | null;
  saveId: number | null;
}

export interface PlayerMaps {
  playerId: string;
  /** When the archive was made: the order of the players. */
  createdAt: number;
  /** When its save was received: the time its maps and push show, and the page shows. */
  receivedAt: number;
  /** The save's region: the zone of its times. */
  region: Region | null;
  token: string;
  pngs: string[];
}

export interface PastRefresh {
  saveId: number;
  receivedAt: number;
  /** The save's region: the zone its maps and push wrote its time in. */
  region: Region | null;
  /** Names the archive in /maps/<token>/<file>. */
  token: string;
  /** The archive's map files, the overview first, then the sites by id. */
  maps: { file: string; label: string }[];
  /** null: archived before digests were kept and its outputs model since cleared. */
  digest: RefreshDigest | null;
  /** A birthday party's delivery, not the player's MySekai save: a refresh of the harvest maps, or a record; null for a save. */
  party: "refresh" | "record" | null;
}

export interface LatestCapture {
  receivedAt: number;
  source: "upload" | "report";
  region: Region | null;
  /** null: not drawn yet. */
  partial: boolean | null;
  /** `type:id` of the resources its maps showed that the catalogue did not know when they were drawn. */
  unknown: string[];
  /** The report's shape and the capture tool's headers (Reqable's platform, ProxyPin's rule name); null for uploads. */
  report: { shape: string; meta: Record<string, string> } | null;
}

export interface FailedCapture {
  receivedAt: number;
  reason: string;
  /** Its time is shown in this region's zone. */
  region: Region | null;
}

export interface CaptureHealth {
  latest: LatestCapture | null;
  failure: FailedCapture | null;
}

export interface SpawnArchive {
  saveId: number;
  receivedAt: number;
  relPath: string;
  /** null: archived before digests were kept (its summary.json is read all the same). */
  digest: RefreshDigest | null;
}

/** The owner's page counts the unknown resources of the archives of the last UNKNOWN_RESOURCE_DAYS days, newest first, at most UNKNOWN_RESOURCE_ARCHIVES of them. */
export const UNKNOWN_RESOURCE_DAYS = 7;
export const UNKNOWN_RESOURCE_ARCHIVES = 500;
