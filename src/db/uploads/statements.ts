/**
 * The upload tasks' statements, written once for both stores (src/db/dialect/; run through the flows of
 * ./accept-chunk.ts). Each read is bounded by an index: open tasks by (completed_at, created_at) (at most
 * UPLOAD_MAX_OPEN live ones), completed tasks of one id by upload_id, chunks by their task.
 */
import type { Primitives } from "../dialect/primitives.ts";
import { read, type Param } from "../dialect/statements.ts";
import type { OpenTask, OpenUsage } from "../../store/model/uploads.ts";

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

export interface PartRow {
  chunkIndex: number;
  body: Uint8Array;
  sha256: string;
}

interface CompletedTask {
  totalChunks: number;
  playerId: string | null;
  /** null where completedTaskText's `from` names the save itself (PostgreSQL's one-statement upload: its new save). */
  saveId: number | null;
  chunkHashes: string[];
  now: number;
}

/** A source's parts: $1 task, $2 below. */
const PARTS_OF = `task_id = $1 AND chunk_index < $2`;
export const partsParams = ({ taskId, below }: PartsSource): Param[] => [taskId, below];
/** The latest completed tasks of upload id $1 since $2, as a subquery. */
const RECENT_COMPLETED = `(SELECT id, save_id, total_chunks, player_id, chunk_hashes FROM upload_tasks
  WHERE upload_id = $1 AND completed_at >= $2 ORDER BY id DESC LIMIT ${RESEND_LOOKBACK}) AS recent`;
/** The chunk's real player id $n (null for none): only a task of the same player, or of none, matches. */
const samePlayer = (column: string, n: number) => `(${column} = $${n} OR (${column} IS NULL AND $${n} IS NULL))`;
const openUsage = (peer: string) =>
  read<OpenUsage>(
    `SELECT CAST(count(*) AS integer) AS "count", coalesce(sum(bytes), 0) AS bytes, min(created_at) AS "oldestCreatedAt" FROM upload_tasks
     WHERE completed_at IS NULL AND created_at >= $1${peer}`,
    { count: "int", bytes: "int", oldestCreatedAt: "int" },
  );
const chunkInsert = (onConflict: string) =>
  read((d) => `INSERT INTO upload_task_chunks (task_id, chunk_index, size, sha256, body) VALUES ($1, $2, $3, $4, ${d.bytes("$5")}) ${onConflict}`);
export const partParams = (taskId: number, part: PartRow): Param[] => [taskId, part.chunkIndex, part.body.byteLength, part.sha256, part.body];

/** Live (not expired: created since $2) open tasks of upload id $1, most recently updated first. */
export const LIVE_OPEN_TASKS = read<OpenTask>(
  `SELECT id, total_chunks AS "totalChunks", player_id AS "playerId", bytes FROM upload_tasks
   WHERE completed_at IS NULL AND created_at >= $2 AND upload_id = $1 ORDER BY updated_at DESC, id DESC`,
  { id: "int", bytes: "int" },
);
/** The latest recent completed task (id $1, since $2) of $3 chunks, of player $4, that already had sha256 $6 at index $5. */
export const RESEND = read<{ id: number; saveId: number | null }>(
  `SELECT id, save_id AS "saveId" FROM ${RECENT_COMPLETED}
   WHERE total_chunks = $3 AND ${samePlayer("player_id", 4)} AND chunk_hashes ->> CAST($5 AS integer) = $6 ORDER BY id DESC LIMIT 1`,
);
/** The latest recent completed task (id $1, since $2) of $3 chunks, of player $4, holding resent chunks below $5 (the start of a new save). */
export const HELD_PREFIX = read<{ id: number }>(
  `SELECT recent.id FROM ${RECENT_COMPLETED} JOIN upload_task_chunks c ON c.task_id = recent.id
   WHERE recent.total_chunks = $3 AND ${samePlayer("recent.player_id", 4)} AND c.chunk_index < $5 ORDER BY recent.id DESC LIMIT 1`,
);
/** What live open tasks (created since $1) hold, for the open-upload caps: all, or peer $2's. */
export const OPEN_USAGE = openUsage("");
export const OPEN_USAGE_OF_PEER = openUsage(" AND peer = $2");
export const PART_SIZES = read<{ chunkIndex: number; size: number }>(`SELECT chunk_index AS "chunkIndex", size FROM upload_task_chunks WHERE ${PARTS_OF}`);
export const PARTS = read<PartRow>((d) => `SELECT chunk_index AS "chunkIndex", ${d.readBytes("body")} AS body, sha256 FROM upload_task_chunks WHERE ${PARTS_OF}`, { body: "bytes" });
/** To task $3. */
export const MOVE_PARTS = read(`UPDATE upload_task_chunks SET task_id = $3 WHERE ${PARTS_OF}`);
export const DROP_PARTS = read(`DELETE FROM upload_task_chunks WHERE ${PARTS_OF}`);
/** A chunk of an open task (partParams); a resent index replaces its earlier bytes. */
export const PUT_PART = chunkInsert(`ON CONFLICT (task_id, chunk_index) DO UPDATE SET size = excluded.size, sha256 = excluded.sha256, body = excluded.body`);
/** A resent chunk held on its completed task (partParams); the first copy stays. */
export const HOLD_PART = chunkInsert(`ON CONFLICT DO NOTHING`);
export const HELD_COUNT = read<{ n: number }>(`SELECT CAST(count(*) AS integer) AS n FROM upload_task_chunks WHERE task_id = $1`);
export const DROP_HELD = read(`DELETE FROM upload_task_chunks WHERE task_id = $1`);
/** Upload id $1 of $2 chunks, player $3, peer $4, $5 bytes so far, at $6. */
export const OPEN_TASK = read<{ id: number }>(
  `INSERT INTO upload_tasks (upload_id, total_chunks, player_id, peer, bytes, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
);
/** Task $1 holds $2 bytes at $3. */
export const GROW_TASK = read(`UPDATE upload_tasks SET bytes = $2, updated_at = $3 WHERE id = $1`);
/** Task $1 completed (doneParams). */
export const COMPLETE_TASK = read(
  `UPDATE upload_tasks SET total_chunks = $2, player_id = $3, save_id = $4, bytes = 0, chunk_hashes = $5, completed_at = $6, updated_at = $6 WHERE id = $1`,
);
/**
 * A task of upload id $1 born completed (doneParams; most uploads: a whole save in one chunk), for the save `from`
 * names as `s`: save $4 in the rule, the new save in PostgreSQL's one-statement upload (./pg.ts), which embeds
 * this text: a column added here reaches both.
 */
export const completedTaskText = (from: string) => (d: Primitives) =>
  `INSERT INTO upload_tasks (upload_id, total_chunks, player_id, save_id, bytes, chunk_hashes, completed_at, created_at, updated_at)
   SELECT $1, $2, $3, s.id, 0, ${d.json("$5")}, $6, $6, $6 FROM ${from} RETURNING id`;
export const COMPLETED_TASK = read<{ id: number }>(completedTaskText("saves s WHERE s.id = $4"));
export const doneParams = (first: Param, done: CompletedTask): Param[] => [first, done.totalChunks, done.playerId, done.saveId, JSON.stringify(done.chunkHashes), done.now];

/**
 * Open tasks created before $1 (their chunks go with them), or tasks completed before $1; `onlyIf`: PostgreSQL's
 * lock on the upload id (./pg.ts).
 */
export const expiredTasks = (onlyIf: string) => ({
  open: read<{ id: number }>(`DELETE FROM upload_tasks WHERE completed_at IS NULL AND created_at < $1 AND ${onlyIf} RETURNING id`),
  completed: read<{ id: number }>(`DELETE FROM upload_tasks WHERE completed_at < $1 AND ${onlyIf} RETURNING id`),
});

