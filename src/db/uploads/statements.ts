/**
 * The upload tasks' statements, in plain SQL both dialects read alike (run by ./sqlite.ts and ./pg.ts through
 * ./accept-chunk.ts). Each read is bounded by an index: open tasks by (completed_at, created_at) (at most
 * UPLOAD_MAX_OPEN live ones), completed tasks of one id by upload_id, chunks by their task.
 */
import { sql, type SQL } from "drizzle-orm";
import type { OpenTask } from "../../store/model/uploads.ts";

/**
 * Only this many of an id's latest completed tasks are looked at, so a fixed id with thousands of saves costs
 * the same per chunk. An older resend is not recognised: it goes through a task again (and dedupes as a save).
 */
export const RESEND_LOOKBACK = 64;

/** The chunks of a task below an index: an open task's parts, or the resent chunks a completed task holds. */
export interface PartsSource {
  taskId: number;
  below: number;
}

export interface CompletedQuery {
  uploadId: string;
  totalChunks: number;
  /** The chunk's real player id (null for none): only a task of the same player, or of none, matches. */
  player: string | null;
  since: number;
}

export interface PartRow {
  chunkIndex: number;
  body: Uint8Array;
  sha256: string;
}

const partsOf = ({ taskId, below }: PartsSource) => sql`task_id = ${taskId} AND chunk_index < ${below}`;
const samePlayer = (column: SQL, player: string | null) => (player === null ? sql`${column} IS NULL` : sql`${column} = ${player}`);
const liveOpen = (liveSince: number) => sql`completed_at IS NULL AND created_at >= ${liveSince}`;

/** The latest completed tasks of one id within the retention, as a subquery. */
const recentCompleted = (uploadId: string, since: number) =>
  sql`(SELECT id, save_id, total_chunks, player_id, chunk_hashes FROM upload_tasks
    WHERE upload_id = ${uploadId} AND completed_at >= ${since} ORDER BY id DESC LIMIT ${RESEND_LOOKBACK}) AS recent`;

export const uploadStatements = {
  /** Live (not expired) open tasks of one upload id, most recently updated first. */
  liveOpenTasks: (uploadId: string, liveSince: number) =>
    sql`SELECT id, total_chunks AS "totalChunks", player_id AS "playerId", bytes FROM upload_tasks
      WHERE ${liveOpen(liveSince)} AND upload_id = ${uploadId} ORDER BY updated_at DESC, id DESC`,
  /** The latest recent completed task of this id that already had exactly these bytes at this index. */
  resend: (query: CompletedQuery & { chunkIndex: number; sha256: string }) =>
    sql`SELECT id, save_id AS "saveId" FROM ${recentCompleted(query.uploadId, query.since)}
      WHERE total_chunks = ${query.totalChunks} AND chunk_hashes ->> CAST(${query.chunkIndex} AS integer) = ${query.sha256} AND ${samePlayer(sql`player_id`, query.player)}
      ORDER BY id DESC LIMIT 1`,
  /** The latest recent completed task of this id holding resent chunks below `below` (the start of a new save). */
  heldPrefix: (query: CompletedQuery & { below: number }) =>
    sql`SELECT recent.id FROM ${recentCompleted(query.uploadId, query.since)} JOIN upload_task_chunks c ON c.task_id = recent.id
      WHERE recent.total_chunks = ${query.totalChunks} AND ${samePlayer(sql`recent.player_id`, query.player)} AND c.chunk_index < ${query.below}
      ORDER BY recent.id DESC LIMIT 1`,
  /** What live open tasks hold (all, or one peer's), for the open-upload caps; PostgreSQL's sums come as text. */
  openUsage: (liveSince: number, peer?: string) =>
    sql`SELECT CAST(count(*) AS integer) AS "count", coalesce(sum(bytes), 0) AS bytes, min(created_at) AS "oldestCreatedAt" FROM upload_tasks
      WHERE ${liveOpen(liveSince)}${peer === undefined ? sql`` : sql` AND peer = ${peer}`}`,
  partSizes: (source: PartsSource) => sql`SELECT chunk_index AS "chunkIndex", size FROM upload_task_chunks WHERE ${partsOf(source)}`,
  parts: (source: PartsSource) => sql`SELECT chunk_index AS "chunkIndex", body, sha256 FROM upload_task_chunks WHERE ${partsOf(source)}`,
  moveParts: (source: PartsSource, taskId: number) => sql`UPDATE upload_task_chunks SET task_id = ${taskId} WHERE ${partsOf(source)}`,
  dropParts: (source: PartsSource) => sql`DELETE FROM upload_task_chunks WHERE ${partsOf(source)}`,
  /** A chunk of an open task; a resent index replaces its earlier bytes. */
  putPart: (taskId: number, part: PartRow) =>
    sql`INSERT INTO upload_task_chunks (task_id, chunk_index, size, sha256, body) VALUES (${taskId}, ${part.chunkIndex}, ${part.body.byteLength}, ${part.sha256}, ${part.body})
      ON CONFLICT (task_id, chunk_index) DO UPDATE SET size = excluded.size, sha256 = excluded.sha256, body = excluded.body`,
  /** A resent chunk held on its completed task; the first copy stays. */
  holdPart: (taskId: number, part: PartRow) =>
    sql`INSERT INTO upload_task_chunks (task_id, chunk_index, size, sha256, body) VALUES (${taskId}, ${part.chunkIndex}, ${part.body.byteLength}, ${part.sha256}, ${part.body})
      ON CONFLICT DO NOTHING`,
  heldCount: (taskId: number) => sql`SELECT CAST(count(*) AS integer) AS n FROM upload_task_chunks WHERE task_id = ${taskId}`,
  dropHeld: (taskId: number) => sql`DELETE FROM upload_task_chunks WHERE task_id = ${taskId}`,
  openTask: (task: { uploadId: string; totalChunks: number; playerId: string | null; peer: string; bytes: number; now: number }) =>
    sql`INSERT INTO upload_tasks (upload_id, total_chunks, player_id, peer, bytes, created_at, updated_at)
      VALUES (${task.uploadId}, ${task.totalChunks}, ${task.playerId}, ${task.peer}, ${task.bytes}, ${task.now}, ${task.now}) RETURNING id`,
  growTask: (taskId: number, bytes: number, now: number) => sql`UPDATE upload_tasks SET bytes = ${bytes}, updated_at = ${now} WHERE id = ${taskId}`,
  completeTask: (taskId: number, done: CompletedTask) =>
    sql`UPDATE upload_tasks SET total_chunks = ${done.totalChunks}, player_id = ${done.playerId}, save_id = ${done.saveId}, bytes = 0,
      chunk_hashes = ${JSON.stringify(done.chunkHashes)}, completed_at = ${done.now}, updated_at = ${done.now} WHERE id = ${taskId}`,
  /** A task born completed (most uploads: a whole save in one chunk). */
  completedTask: (uploadId: string, done: CompletedTask) =>
    sql`INSERT INTO upload_tasks (upload_id, total_chunks, player_id, save_id, bytes, chunk_hashes, completed_at, created_at, updated_at)
      VALUES (${uploadId}, ${done.totalChunks}, ${done.playerId}, ${done.saveId}, 0, ${JSON.stringify(done.chunkHashes)}, ${done.now}, ${done.now}, ${done.now}) RETURNING id`,
  /** Open tasks past the TTL (their chunks go with them), or completed ones past the retention; `onlyIf`: PostgreSQL's lock on the upload id. */
  expiredOpen: (before: number, onlyIf: SQL) => sql`DELETE FROM upload_tasks WHERE completed_at IS NULL AND created_at < ${before} AND ${onlyIf} RETURNING id`,
  expiredCompleted: (before: number, onlyIf: SQL) => sql`DELETE FROM upload_tasks WHERE completed_at < ${before} AND ${onlyIf} RETURNING id`,
};

export interface CompletedTask {
  totalChunks: number;
  playerId: string | null;
  saveId: number;
  chunkHashes: string[];
  now: number;
}

export type { OpenTask };
