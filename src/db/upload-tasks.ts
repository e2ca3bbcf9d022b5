/**
 * Read queries over upload tasks, each bounded by an index: open tasks by (completed_at, created_at) (at most
 * UPLOAD_MAX_OPEN live ones), completed tasks of one id by upload_id.
 */
import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { Tx } from "./open.ts";
import { uploadChunks, uploads } from "./schema.ts";

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

/** A chunk naming no player matches any task; one naming a real player only that player's. */
const samePlayer = (player: string | null) => (player === null ? sql`1` : eq(uploads.playerId, player));

export interface ResendQuery {
  uploadId: string;
  chunkIndex: number;
  totalChunks: number;
  sha256: string;
  /** The chunk's real player id: a task of another real player never matches. */
  player: string | null;
  since: number;
}

/** The latest completed task of this id that already had exactly these bytes at this index. */
export function findResend(tx: Tx, query: ResendQuery): { id: number; saveId: number | null } | undefined {
  return tx
    .select({ id: uploads.id, saveId: uploads.saveId })
    .from(uploads)
    .where(
      and(
        eq(uploads.uploadId, query.uploadId),
        gte(uploads.completedAt, query.since),
        eq(uploads.totalChunks, query.totalChunks),
        sql`json_extract(${uploads.chunkHashes}, ${`$[${query.chunkIndex}]`}) = ${query.sha256}`,
        samePlayer(query.player),
      ),
    )
    .orderBy(desc(uploads.id))
    .limit(1)
    .get();
}

/** The latest completed task of this id holding resent chunks below `below` (the start of a new save). */
export function findHeldPrefix(
  tx: Tx,
  query: { uploadId: string; totalChunks: number; player: string | null; below: number; since: number },
): number | undefined {
  if (query.below === 0) return undefined;
  return tx
    .select({ id: uploads.id })
    .from(uploads)
    .innerJoin(uploadChunks, eq(uploadChunks.taskId, uploads.id))
    .where(
      and(
        eq(uploads.uploadId, query.uploadId),
        gte(uploads.completedAt, query.since),
        eq(uploads.totalChunks, query.totalChunks),
        samePlayer(query.player),
        lt(uploadChunks.chunkIndex, query.below),
      ),
    )
    .orderBy(desc(uploads.id))
    .limit(1)
    .get()?.id;
}

export interface OpenUsage {
  count: number;
  bytes: number;
  oldestCreatedAt: number | null;
}

/** What live open tasks hold, for the open-upload caps. */
export function openUsage(tx: Tx, liveSince: number): OpenUsage {
  const row = tx
    .select({
      count: sql<number>`count(*)`,
      bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)`,
      oldestCreatedAt: sql<number | null>`min(${uploads.createdAt})`,
    })
    .from(uploads)
    .where(and(isNull(uploads.completedAt), gte(uploads.createdAt, liveSince)))
    .get();
  return row ?? { count: 0, bytes: 0, oldestCreatedAt: null };
}
