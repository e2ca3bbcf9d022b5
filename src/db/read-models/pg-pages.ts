/**
 * The pages' read model (src/http/status/reads.ts) on a hub's PostgreSQL: the queries of src/http/status/queries.ts
 * and db/player-history.ts over the same rows. Reads only; each table's writes stay with its owner.
 */
import { and, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { SaveOutputs } from "../../maps/save-outputs.ts";
import { pastRefresh, historySince, HISTORY_ROWS } from "./player-history.ts";
import type { PageReads } from "../../store/ports/pages.ts";
import { JOB_LIST_ROWS, MAP_PLAYERS, PAGE_ROWS, QUEUED, withPngs } from "./sqlite-pages.ts";
import type { PgDb } from "../pg/open.ts";
import { archives, deliveries, jobs, reports, saves } from "../pg/schema.ts";
import { JOB_STATES, type JobState } from "../../store/model/jobs.ts";

/** count(*) is a bigint, which postgres-js hands over as a string. */
const count = sql<number>`count(*)::int`;
const archiveWithSave = { playerId: archives.playerId, createdAt: archives.createdAt, receivedAt: saves.receivedAt, region: saves.region, token: archives.token, files: archives.files };
/** A full MySekai save: the latest maps are its (as queries.ts). */
const fullSave = and(eq(saves.dataType, "mysekai"), eq(saves.partial, false));

export function pgPageReads(db: PgDb): PageReads {
  const countOf = async (query: PromiseLike<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  return {
    queueSnapshot: async (now) => {
      const rows = await db.select({ state: jobs.state, count }).from(jobs).groupBy(jobs.state);
      const byState = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
      for (const row of rows) byState[row.state] = row.count;
      const [oldest] = await db.select({ at: sql<number | null>`min(${jobs.createdAt})`.mapWith(Number) }).from(jobs).where(inArray(jobs.state, QUEUED));
      const at = oldest?.at ?? null;
      return { byState, depth: QUEUED.reduce((sum, state) => sum + byState[state], 0), oldestQueuedAgeMs: at === null ? null : Math.max(0, now - at) };
    },
    recentSaves: (limit = PAGE_ROWS) =>
      db
        .select({ id: saves.id, receivedAt: saves.receivedAt, playerId: saves.playerId, source: saves.source, region: saves.region, dataType: saves.dataType, partial: saves.partial, stage: jobs.stage, state: jobs.state })
        .from(saves)
        .leftJoin(jobs, eq(jobs.saveId, saves.id))
        .orderBy(desc(saves.id))
        .limit(limit),
    latestMaps: async (players = MAP_PLAYERS) => {
      // Each player's newest archive in one statement (SQLite's query asks once per player).
      const newest = db
        .selectDistinctOn([archives.playerId], archiveWithSave)
        .from(archives)
        .innerJoin(saves, eq(saves.id, archives.saveId))
        .where(fullSave)
        .orderBy(archives.playerId, desc(archives.createdAt))
        .as("newest");
      const rows = await db.select().from(newest).orderBy(desc(newest.createdAt)).limit(players);
      return rows.flatMap(withPngs);
    },
    mapsOfPlayer: async (playerId, limit = 1) =>
      (await db.select(archiveWithSave).from(archives).innerJoin(saves, eq(saves.id, archives.saveId)).where(and(eq(archives.playerId, playerId), fullSave)).orderBy(desc(archives.createdAt)).limit(limit)).flatMap(withPngs),
    archiveByToken: async (token) => (await db.select({ relPath: archives.relPath, files: archives.files }).from(archives).where(eq(archives.token, token)))[0] ?? null,
    failedDeliveries: (limit = PAGE_ROWS) =>
      db
        .select({ id: deliveries.id, saveId: deliveries.saveId, channel: deliveries.channel, target: deliveries.target, lastError: deliveries.lastError, attempts: deliveries.attempts, playerId: saves.playerId })
        .from(deliveries)
        .innerJoin(saves, eq(saves.id, deliveries.saveId))
        .where(eq(deliveries.state, "failed"))
        .orderBy(desc(deliveries.id))
        .limit(limit),
    retryingJobs: (limit = PAGE_ROWS) =>
      db
        .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, stage: jobs.stage, lastError: jobs.lastError, attempts: jobs.attempts, runAt: jobs.runAt, playerId: saves.playerId, region: saves.region })
        .from(jobs)
        .leftJoin(saves, eq(saves.id, jobs.saveId))
        .where(and(eq(jobs.state, "pending_retry"), isNotNull(jobs.lastError)))
        .orderBy(jobs.runAt, jobs.id)
        .limit(limit),
    retryingDeliveries: (limit = PAGE_ROWS) =>
      db
        .select({ id: deliveries.id, saveId: deliveries.saveId, channel: deliveries.channel, target: deliveries.target, lastError: deliveries.lastError, attempts: deliveries.attempts, nextAttemptAt: deliveries.nextAttemptAt, playerId: saves.playerId, region: saves.region })
        .from(deliveries)
        .innerJoin(saves, eq(saves.id, deliveries.saveId))
        .where(and(eq(deliveries.state, "pending"), isNotNull(deliveries.lastError)))
        .orderBy(deliveries.nextAttemptAt, deliveries.id)
        .limit(limit),
    failedJobs: (limit = PAGE_ROWS) =>
      db
        .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, stage: jobs.stage, lastError: jobs.lastError, updatedAt: jobs.updatedAt, playerId: saves.playerId, region: saves.region })
        .from(jobs)
        .leftJoin(saves, eq(saves.id, jobs.saveId))
        .where(eq(jobs.state, "failed"))
        .orderBy(desc(jobs.updatedAt))
        .limit(limit),
    jobList: (state, limit = JOB_LIST_ROWS) =>
      db
        .select({ id: jobs.id, saveId: jobs.saveId, reportId: jobs.reportId, playerId: saves.playerId, stage: jobs.stage, state: jobs.state, attempts: jobs.attempts, runAt: jobs.runAt, lastError: jobs.lastError })
        .from(jobs)
        .leftJoin(saves, eq(saves.id, jobs.saveId))
        .where(state ? eq(jobs.state, state) : undefined)
        .orderBy(desc(jobs.id))
        .limit(limit),
    recentReports: (limit = PAGE_ROWS) =>
      db
        .select({ id: reports.id, receivedAt: reports.receivedAt, shape: reports.shape, candidates: reports.candidateCount, outcome: reports.outcome, saveId: reports.saveId })
        .from(reports)
        .orderBy(desc(reports.id))
        .limit(limit),
    countsSince: async (since) => ({
      saves: await countOf(db.select({ n: count }).from(saves).where(gte(saves.receivedAt, since))),
      reports: await countOf(db.select({ n: count }).from(reports).where(gte(reports.receivedAt, since))),
      deliveriesSent: await countOf(db.select({ n: count }).from(deliveries).where(and(eq(deliveries.state, "sent"), gte(deliveries.sentAt, since)))),
      deliveriesFailed: await countOf(db.select({ n: count }).from(deliveries).where(and(eq(deliveries.state, "failed"), gte(deliveries.createdAt, since)))),
      jobsFailed: await countOf(db.select({ n: count }).from(jobs).where(and(eq(jobs.state, "failed"), gte(jobs.updatedAt, since)))),
    }),
    databaseBytes: async () => Number((await db.$client`SELECT pg_database_size(current_database()) AS bytes`)[0]!.bytes),
    history: async (playerId, now = Date.now()) => {
      const rows = await db
        .select({
          saveId: saves.id,
          receivedAt: saves.receivedAt,
          region: saves.region,
          dataType: saves.dataType,
          token: archives.token,
          files: archives.files,
          digest: archives.digest,
          outputs: sql<SaveOutputs | null>`CASE WHEN ${archives.digest} IS NULL THEN ${saves.outputs} END`,
        })
        .from(saves)
        .innerJoin(archives, eq(archives.saveId, saves.id))
        .where(and(eq(saves.playerId, playerId), gte(saves.receivedAt, historySince(now))))
        .orderBy(desc(saves.receivedAt), desc(saves.id))
        .limit(HISTORY_ROWS);
      return rows.map(pastRefresh);
    },
  };
}
