/**
 * Uploads on a hub's PostgreSQL: the rule of ./accept-chunk.ts in one transaction per chunk, in which the save and
 * its job are stored when the chunk completes one. N processes accept at once, so what SQLite's single writer
 * gives for free is taken here with transaction advisory locks: the chunks of one X-Upload-Id are placed one at a
 * time, and a chunk that opens or grows a task checks the open-upload caps under one lock. Single-chunk saves take
 * neither: their task is born completed (in one statement, below), and the saves' unique index dedupes. The locks
 * are the flow's (./accept-chunk.ts).
 */
import { sql } from "drizzle-orm";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../store/ports/ingest.ts";
import { pgEnqueueSavesFrom, pgNotifyNewWorkFrom, pgNotifySender } from "../jobs/pg.ts";
import { underHousekeepingLock } from "../pg/housekeeping-lock.ts";
import type { PgDb } from "../pg/open.ts";
import { pgInsertSaveOnce } from "../saves/pg.ts";
import { pgFragment, pgStatements } from "../dialect/pg.ts";
import { PG } from "../dialect/primitives.ts";
import { acceptChunk, expireUploads, UPLOAD_ID_LOCK } from "./accept-chunk.ts";
import { realPlayer } from "./rules.ts";
import { completedTaskText, doneParams, expiredTasks } from "./statements.ts";

/**
 * A task whose upload id a chunk holds right now is left to the next sweep: deleted under that chunk, its part
 * would fail the foreign key (a 500) instead of opening a new task.
 */
const EXPIRED = expiredTasks(`pg_try_advisory_xact_lock(${UPLOAD_ID_LOCK}, hashtext(upload_id))`);
/** The rule's completed task (./statements.ts), for the save the statement below inserts. */
const COMPLETED_TASK_OF_NEW_SAVE = completedTaskText("new_save s")(PG);

export async function pgAcceptChunk(db: PgDb, chunk: IncomingChunk, limits: UploadLimits): Promise<ChunkOutcome> {
  const sha256 = sha256Hex(chunk.body);
  const single = chunk.header.totalChunks === 1 && chunk.body.byteLength <= limits.maxUploadBytes;
  return (single ? await storeNewSingleChunkSave(db, chunk, sha256, limits) : null) ?? acceptByRule(db, chunk, sha256, limits);
}

/** The chunk's rule (accept-chunk.ts) in one transaction: every chunk the one-statement path below does not take. */
export const acceptByRule = (db: PgDb, chunk: IncomingChunk, sha256: string, limits: UploadLimits): Promise<ChunkOutcome> =>
  pgStatements(db).transaction(() => acceptChunk(chunk, sha256, limits));

/**
 * The usual upload, one chunk of a save not stored yet, in one statement (one round trip, committed on its own):
 * the save, its job and wake-up, and its completed task, by the rule's own texts (the saves', the jobs' and the
 * upload tasks' INSERTs), as the rule writes them when no save has this sha256. null, writing nothing, when one
 * has: then the transaction decides (a resend, a duplicate, an adoption).
 * A shortcut of the rule: tests/contract/upload-fast-path.contract.test.ts runs both on the same chunks and
 * compares every column of every table (a column the rule writes and this misses fails it).
 */
export async function storeNewSingleChunkSave(db: PgDb, chunk: IncomingChunk, sha256: string, { mayBeSave, keepsNewSave }: UploadLimits): Promise<ChunkOutcome | null> {
  const { header, body, now } = chunk;
  const player = realPlayer(chunk.playerId);
  const playerId = player ?? UNKNOWN_PLAYER;
  const newSave = sql.raw("new_save");
  const save = pgInsertSaveOnce({ encrypted: body, playerId, source: "upload", receivedAt: now, sha256, origin: chunk.origin });
  const task = pgFragment(COMPLETED_TASK_OF_NEW_SAVE, doneParams(header.uploadId, { totalChunks: 1, playerId: player, saveId: null, chunkHashes: [sha256], now }));
  const [row] = await db.execute<{ task_id: number; save_id: number }>(sql`
    WITH new_save AS (${save}),
    new_job AS (${pgEnqueueSavesFrom("new_save", now, !mayBeSave(body))}),
    task AS (${task})
    SELECT task.id AS task_id, new_save.id AS save_id, ${pgNotifyNewWorkFrom(newSave, keepsNewSave?.() ? null : pgNotifySender(db))} AS woken FROM task, new_save`);
  if (!row) return null;
  return { kind: "completed", taskId: row.task_id, saveId: row.save_id, created: true, adopted: false, playerId, saveBytes: body.byteLength };
}

/** As SQLite's, in one process at a time (the housekeeping lock); null when another holds it. */
export function pgExpireUploads(db: PgDb, now: number, ttlMs: number): Promise<number | null> {
  return underHousekeepingLock(db, () => pgStatements(db).transaction(() => expireUploads(EXPIRED, now, ttlMs)));
}
