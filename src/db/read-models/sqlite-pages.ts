/** The read side of the owner's view: every query the status page, /healthz and /metrics show. Never writes. */
import { and, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../open.ts";
import type { Region } from "../../capture/regions.ts";
import { archives, deliveries, jobs, reports, saves } from "../schema.ts";
import { JOB_STATES, type JobState } from "../../store/model/jobs.ts";

export const QUEUED: JobState[] = ["pending", "pending_retry", "running", "waiting_for_key"];
/** Rows of each list on the owner's page, and players in its maps section. */
export const PAGE_ROWS = 20;
export const MAP_PLAYERS = 12;

export interface QueueSnapshot {
  byState: Record<JobState, number>;
  /** Jobs not finished: pending, pending_retry, running, waiting_for_key. */
  depth: number;
  oldestQueuedAgeMs: number | null;
}

export function queueSnapshot(db: Db, now: number): QueueSnapshot {
  const rows = db.select({ state: jobs.state, count: sql<number>`count(*)` }).from(jobs).groupBy(jobs.state).all();
  const byState = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
  for (const row of rows) byState[row.state] = row.count;
  const oldest = db.select({ at: sql<number | null>`min(${jobs.createdAt})` }).from(jobs).where(inArray(jobs.state, QUEUED)).get()?.at ?? null;
  return { byState, depth: QUEUED.reduce((sum, state) => sum + byState[state], 0), oldestQueuedAgeMs: oldest === null ? null : Math.max(0, now - oldest) };
}

export function recentSaves(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: saves.id, receivedAt: saves.receivedAt, playerId: saves.playerId, source: saves.source, region: saves.region, dataType: saves.dataType, partial: saves.partial, stage: jobs.stage, state: jobs.state })
    .from(saves)
    .leftJoin(jobs, eq(jobs.saveId, saves.id))
    .orderBy(desc(saves.id))
    .limit(limit)
    .all();
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

/** An archive row with its save's time and region, as the maps sections show it (or nothing without maps). */
export function withPngs(row: { playerId: string; createdAt: number; receivedAt: number; region: Region | null; token: string; files: string[] }): PlayerMaps[] {
  const pngs = row.files.filter((name) => name.endsWith(".png"));
  return pngs.length > 0 ? [{ playerId: row.playerId, createdAt: row.createdAt, receivedAt: row.receivedAt, region: row.region, token: row.token, pngs }] : [];
}

const archiveWithSave = { playerId: archives.playerId, createdAt: archives.createdAt, receivedAt: saves.receivedAt, region: saves.region, token: archives.token, files: archives.files };
/**
 * The "latest maps" are a player's newest full MySekai save's: a birthday party's delivery (its one site) and a
 * partial refresh (no maps) are left to the history, which marks them.
 */
const fullSave = and(eq(saves.dataType, "mysekai"), eq(saves.partial, false));

/** Each player's newest full save's archive with maps, newest players first. */
export function latestMaps(db: Db, players = MAP_PLAYERS): PlayerMaps[] {
  const newest = db
    .select({ playerId: archives.playerId, createdAt: sql<number>`max(${archives.createdAt})`.as("newest") })
    .from(archives)
    .innerJoin(saves, eq(saves.id, archives.saveId))
    .where(fullSave)
    .groupBy(archives.playerId)
    .orderBy(desc(sql`newest`))
    .limit(players)
    .all();
  return newest.flatMap(({ playerId, createdAt }) => {
    const row = db
      .select(archiveWithSave)
      .from(archives)
      .innerJoin(saves, eq(saves.id, archives.saveId))
      .where(and(eq(archives.playerId, playerId), eq(archives.createdAt, createdAt), fullSave))
      .get();
    return row ? withPngs(row) : [];
  });
}

/** The archive a /maps/<token>/… URL names: its folder and files; null for an unknown token. */
export function archiveByToken(db: Db, token: string): { relPath: string; files: string[] } | null {
  return db.select({ relPath: archives.relPath, files: archives.files }).from(archives).where(eq(archives.token, token)).get() ?? null;
}

/** One player's newest full saves' archives with maps, newest first (one: the history lists the others). */
export function mapsOfPlayer(db: Db, playerId: string, limit = 1): PlayerMaps[] {
  const rows = db.select(archiveWithSave).from(archives).innerJoin(saves, eq(saves.id, archives.saveId)).where(and(eq(archives.playerId, playerId), fullSave)).orderBy(desc(archives.createdAt)).limit(limit).all();
  return rows.flatMap(withPngs);
}

/** The latest failed deliveries with their save's player, for the owner's page. */
export function failedDeliveries(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: deliveries.id, saveId: deliveries.saveId, channel: deliveries.channel, target: deliveries.target, lastError: deliveries.lastError, attempts: deliveries.attempts, playerId: saves.playerId })
    .from(deliveries)
    .innerJoin(saves, eq(saves.id, deliveries.saveId))
    .where(eq(deliveries.state, "failed"))
    .orderBy(desc(deliveries.id))
    .limit(limit)
    .all();
}

export function failedJobs(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, stage: jobs.stage, lastError: jobs.lastError, updatedAt: jobs.updatedAt, playerId: saves.playerId, region: saves.region })
    .from(jobs)
    .leftJoin(saves, eq(saves.id, jobs.saveId))
    .where(eq(jobs.state, "failed"))
    .orderBy(desc(jobs.updatedAt))
    .limit(limit)
    .all();
}

/** Jobs waiting for their next try after an error of their own, the soonest first (a push's error is its delivery's). */
export function retryingJobs(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, stage: jobs.stage, lastError: jobs.lastError, attempts: jobs.attempts, runAt: jobs.runAt, playerId: saves.playerId, region: saves.region })
    .from(jobs)
    .leftJoin(saves, eq(saves.id, jobs.saveId))
    .where(and(eq(jobs.state, "pending_retry"), isNotNull(jobs.lastError)))
    .orderBy(jobs.runAt, jobs.id)
    .limit(limit)
    .all();
}

/** Pushes a channel refused for now (a 5xx, a timeout), waiting for their next try, the soonest first. */
export function retryingDeliveries(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: deliveries.id, saveId: deliveries.saveId, channel: deliveries.channel, target: deliveries.target, lastError: deliveries.lastError, attempts: deliveries.attempts, nextAttemptAt: deliveries.nextAttemptAt, playerId: saves.playerId, region: saves.region })
    .from(deliveries)
    .innerJoin(saves, eq(saves.id, deliveries.saveId))
    .where(and(eq(deliveries.state, "pending"), isNotNull(deliveries.lastError)))
    .orderBy(deliveries.nextAttemptAt, deliveries.id)
    .limit(limit)
    .all();
}

export const JOB_LIST_ROWS = 200;

/** The owner CLI's `jobs`: the newest jobs (of one state) with their save's player. */
export function jobList(db: Db, state: JobState | undefined, limit = JOB_LIST_ROWS) {
  return db
    .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, playerId: saves.playerId, stage: jobs.stage, state: jobs.state, attempts: jobs.attempts, runAt: jobs.runAt, lastError: jobs.lastError })
    .from(jobs)
    .leftJoin(saves, eq(saves.id, jobs.saveId))
    .where(state ? eq(jobs.state, state) : undefined)
    .orderBy(desc(jobs.id))
    .limit(limit)
    .all();
}

export function recentReports(db: Db, limit = PAGE_ROWS) {
  return db
    .select({ id: reports.id, receivedAt: reports.receivedAt, shape: reports.shape, candidates: reports.candidateCount, outcome: reports.outcome, saveId: reports.saveId })
    .from(reports)
    .orderBy(desc(reports.id))
    .limit(limit)
    .all();
}

export interface DayCounts {
  saves: number;
  reports: number;
  deliveriesSent: number;
  deliveriesFailed: number;
  jobsFailed: number;
}

export function countsSince(db: Db, since: number): DayCounts {
  const count = (query: { get: () => { n: number } | undefined }) => query.get()?.n ?? 0;
  const n = sql<number>`count(*)`;
  return {
    saves: count(db.select({ n }).from(saves).where(gte(saves.receivedAt, since))),
    reports: count(db.select({ n }).from(reports).where(gte(reports.receivedAt, since))),
    deliveriesSent: count(db.select({ n }).from(deliveries).where(and(eq(deliveries.state, "sent"), gte(deliveries.sentAt, since)))),
    deliveriesFailed: count(db.select({ n }).from(deliveries).where(and(eq(deliveries.state, "failed"), gte(deliveries.createdAt, since)))),
    jobsFailed: count(db.select({ n }).from(jobs).where(and(eq(jobs.state, "failed"), gte(jobs.updatedAt, since)))),
  };
}

/** Bytes the SQLite file holds (pages in use and free pages). */
export function databaseBytes(db: Db): number {
  const pages = db.$client.query("PRAGMA page_count").get() as { page_count: number };
  const size = db.$client.query("PRAGMA page_size").get() as { page_size: number };
  return pages.page_count * size.page_size;
}
