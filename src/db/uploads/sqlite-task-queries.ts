/**
 * Read queries over upload tasks, each bounded by an index: open tasks by (completed_at, created_at) (at most
 * UPLOAD_MAX_OPEN live ones), completed tasks of one id by upload_id.
 */
import { and, desc, eq, gte, isNull, lt, sql, type SQLWrapper } from "drizzle-orm";
import type { Tx } from "../open.ts";
import { uploadChunks, uploads } from "../schema.ts";

export interface OpenTask {
  id: number;
  totalChunks: number;
  playerId: string | null;
  bytes: number;
}

/** Live (not expired) open tasks of one upload id, most recently updated first. */
export function liveOpenTasks(tx: Tx, uploadId: string, liveSince: number): OpenTask[] {
  return tx
    .select({ id: uploads.id, totalChunks: uploads.totalChunks, playerId: uploads.playerId, bytes: uploads.bytes })
    .from(uploads)
    .where(and(isNull(uploads.completedAt), gte(uploads.createdAt, liveSince), eq(uploads.uploadId, uploadId)))
    .orderBy(desc(uploads.updatedAt), desc(uploads.id))
    .all();
}

/**
 * Only this many of an id's latest completed tasks are looked at, so a fixed id with thousands of saves costs
 * the same per chunk. An older resend is not recognised: it goes through a task again (and dedupes as a save).
 */
export const RESEND_LOOKBACK = 64;

/** The latest completed tasks of one id within the retention, as a subquery. */
function recentCompleted(tx: Tx, uploadId: string, since: number) {
  return tx
    .select({ id: uploads.id, saveId: uploads.saveId, totalChunks: uploads.totalChunks, playerId: uploads.playerId, chunkHashes: uploads.chunkHashes })
    .from(uploads)
    .where(and(eq(uploads.uploadId, uploadId), gte(uploads.completedAt, since)))
    .orderBy(desc(uploads.id))
    .limit(RESEND_LOOKBACK)
    .as("recent");
}

/** A task's player column against a chunk's player: the same real id, or both none. */
function samePlayer(column: SQLWrapper, player: string | null) {
  return player === null ? sql`${column} IS NULL` : sql`${column} = ${player}`;
}

export interface CompletedQuery {
  uploadId: string;
  totalChunks: number;
  /** The chunk's real player id (null for none): only a task of the same player, or of none, matches. */
  player: string | null;
  since: number;
}

/** The latest recent completed task of this id that already had exactly these bytes at this index. */
export function findResend(tx: Tx, query: CompletedQuery & { chunkIndex: number; sha256: string }): { id: number; saveId: number | null } | undefined {
  const recent = recentCompleted(tx, query.uploadId, query.since);
  return tx
    .select({ id: recent.id, saveId: recent.saveId })
    .from(recent)
    .where(
      and(
        eq(recent.totalChunks, query.totalChunks),
        sql`json_extract(${recent.chunkHashes}, ${`$[${query.chunkIndex}]`}) = ${query.sha256}`,
        samePlayer(recent.playerId, query.player),
      ),
    )
    .orderBy(desc(recent.id))
    .limit(1)
    .get();
}

/** The latest recent completed task of this id holding resent chunks below `below` (the start of a new save). */
export function findHeldPrefix(tx: Tx, query: CompletedQuery & { below: number }): number | undefined {
  if (query.below === 0) return undefined;
  const recent = recentCompleted(tx, query.uploadId, query.since);
  return tx
    .select({ id: recent.id })
    .from(recent)
    .innerJoin(uploadChunks, eq(uploadChunks.taskId, recent.id))
    .where(
      and(
        eq(recent.totalChunks, query.totalChunks),
        samePlayer(recent.playerId, query.player),
        lt(uploadChunks.chunkIndex, query.below),
      ),
    )
    .orderBy(desc(recent.id))
    .limit(1)
    .get()?.id;
}

export interface OpenUsage {
  count: number;
  bytes: number;
  oldestCreatedAt: number | null;
}

/** What live open tasks hold (all, or one peer's), for the open-upload caps. */
export function openUsage(tx: Tx, liveSince: number, peer?: string): OpenUsage {
  const row = tx
    .select({
      count: sql<number>`count(*)`,
      bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)`,
      oldestCreatedAt: sql<number | null>`min(${uploads.createdAt})`,
    })
    .from(uploads)
    .where(and(isNull(uploads.completedAt), gte(uploads.createdAt, liveSince), peer === undefined ? undefined : eq(uploads.peer, peer)))
    .get();
  return row ?? { count: 0, bytes: 0, oldestCreatedAt: null };
}
