/**
 * Chunk assembly on a hub's PostgreSQL: the rules of ../uploads.ts (the contract suite holds them together), one
 * transaction per chunk, in which the save and its job are stored when the chunk completes one. N processes
 * accept at once, so what SQLite's single writer gives for free is taken here with transaction advisory locks:
 * the chunks of one X-Upload-Id are placed one at a time (two processes never open two tasks for one upload),
 * and a chunk that opens or grows a task checks the open-upload caps under one lock, so processes together never
 * pass them. Single-chunk saves take neither: their task is born completed, and the saves' unique index dedupes.
 */
import { and, desc, eq, gte, isNull, lt, sql, type SQLWrapper } from "drizzle-orm";
import { dataTypeOfUrl } from "../../capture/data-types.ts";
import { regionOfUrl } from "../../capture/regions.ts";
import type { ChunkHeader } from "../../ingest/chunk-headers.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import { capVerdict, type CapChange } from "../open-upload-caps.ts";
import type { OpenTask, OpenUsage } from "../upload-tasks.ts";
import { RESEND_LOOKBACK } from "../upload-tasks.ts";
import { COMPLETED_UPLOAD_RETENTION_MS, isLateFirstPart, realPlayer, taskToJoin, type ChunkOutcome, type IncomingChunk, type Part, type Placement, type UploadLimits } from "../uploads.ts";
import { underHousekeepingLock } from "./housekeeping-lock.ts";
import type { PgDb, PgTx } from "./open.ts";
import { pgEnqueueSavesFrom, pgNotifyNewWorkFrom, pgNotifySender } from "../jobs/pg-enqueue.ts";
import { pgInsertSaveOnce, pgSaveWithSha, pgStoreSaveOnce } from "./saves.ts";
import { uploadChunks, uploads } from "./schema.ts";

/** Advisory lock keys (int4 class with a hash for one upload id; one bigint for the caps): any constants every process shares. */
const UPLOAD_ID_LOCK = 0x6d79_7375; // "mysu"
const OPEN_CAPS_LOCK = 0x6d79_7363; // "mysc"

interface PartsSource {
  taskId: number;
  below: number;
}

const partsOf = (source: PartsSource) => and(eq(uploadChunks.taskId, source.taskId), lt(uploadChunks.chunkIndex, source.below));

const partSizes = async (tx: PgTx, source: PartsSource | undefined) =>
  source ? tx.select({ chunkIndex: uploadChunks.chunkIndex, size: uploadChunks.size }).from(uploadChunks).where(partsOf(source)) : [];

export async function pgAcceptChunk(db: PgDb, chunk: IncomingChunk, limits: UploadLimits): Promise<ChunkOutcome> {
  const sha256 = sha256Hex(chunk.body);
  const single = chunk.header.totalChunks === 1 && chunk.body.byteLength <= limits.maxUploadBytes;
  return (single ? await storeNewSingleChunkSave(db, chunk, sha256, limits) : null) ?? acceptInTransaction(db, chunk, sha256, limits);
}

/**
 * The usual upload, one chunk of a save not stored yet, in one statement (one round trip, committed on its own):
 * the save, its job and wake-up, and its completed task, just as the transaction below would write them when no
 * save has this sha256. null, writing nothing, when one has: then the transaction decides (a resend, a duplicate,
 * an adoption).
 */
async function storeNewSingleChunkSave(db: PgDb, chunk: IncomingChunk, sha256: string, { mayBeSave, keepsNewSave }: UploadLimits): Promise<ChunkOutcome | null> {
  const { header, body, now } = chunk;
  const player = realPlayer(chunk.playerId);
  const playerId = player ?? UNKNOWN_PLAYER;
  const newSave = sql.raw("new_save");
  const save = pgInsertSaveOnce({ encrypted: body, playerId, source: "upload", receivedAt: now, sha256, region: regionOfUrl(header.originalUrl), dataType: dataTypeOfUrl(header.originalUrl) });
  const [row] = await db.execute<{ task_id: number; save_id: number }>(sql`
    WITH new_save AS (${save}),
    new_job AS (${pgEnqueueSavesFrom(newSave, now, !mayBeSave(body))}),
    task AS (INSERT INTO upload_tasks (upload_id, total_chunks, player_id, save_id, bytes, chunk_hashes, completed_at, created_at, updated_at)
      SELECT ${header.uploadId}, 1, ${player}, id, 0, ${JSON.stringify([sha256])}::jsonb, ${now}, ${now}, ${now} FROM new_save RETURNING id, save_id)
    SELECT task.id AS task_id, task.save_id, ${pgNotifyNewWorkFrom(newSave, keepsNewSave?.() ? null : pgNotifySender(db))} AS woken FROM task`);
  if (!row) return null;
  return { kind: "completed", taskId: row.task_id, saveId: row.save_id, created: true, adopted: false, playerId, saveBytes: body.byteLength };
}

function acceptInTransaction(db: PgDb, chunk: IncomingChunk, sha256: string, limits: UploadLimits): Promise<ChunkOutcome> {
  return db.transaction(async (tx) => {
    const { header, body, now } = chunk;
    const { uploadId, chunkIndex, totalChunks } = header;
    const player = realPlayer(chunk.playerId);
    if (totalChunks > 1) await tx.execute(sql`SELECT pg_advisory_xact_lock(${UPLOAD_ID_LOCK}::int, hashtext(${uploadId}))`);
    const task = totalChunks === 1 ? undefined : taskToJoin(await liveOpenTasks(tx, uploadId, now - limits.ttlMs), player);
    const taskParts = await partSizes(tx, task && { taskId: task.id, below: totalChunks });

    const since = now - COMPLETED_UPLOAD_RETENTION_MS;
    const mayBeResend = totalChunks > 1 || (await pgSaveWithSha(tx, sha256)) !== undefined;
    const resent = mayBeResend ? await findResend(tx, { uploadId, chunkIndex, totalChunks, sha256, player, since }) : undefined;
    if (resent && !isLateFirstPart(task, taskParts, header)) {
      if (totalChunks > 1) await holdResentChunk(tx, resent.id, totalChunks, { chunkIndex, body, sha256 });
      return { kind: "resend", taskId: resent.id, saveId: resent.saveId };
    }
    if (task && task.totalChunks !== totalChunks) return { kind: "total_mismatch", expected: task.totalChunks };

    let source: PartsSource | undefined;
    if (task) source = { taskId: task.id, below: totalChunks };
    else if (totalChunks > 1) {
      const holder = await findHeldPrefix(tx, { uploadId, totalChunks, player, below: chunkIndex, since });
      if (holder !== undefined) source = { taskId: holder, below: chunkIndex };
    }
    const others = (task ? taskParts : await partSizes(tx, source)).filter((part) => part.chunkIndex !== chunkIndex);
    const uploadBytes = others.reduce((sum, part) => sum + part.size, 0) + body.byteLength;
    if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };

    const place = { task, source, playerId: player, peer: chunk.peer, now };
    const part = { chunkIndex, body, sha256 };
    if (others.length + 1 < totalChunks) {
      const refused = await checkOpenCaps(tx, limits, now, { peer: chunk.peer, newTask: !task, addedBytes: uploadBytes - (task?.bytes ?? 0) });
      return refused ?? (await storePart(tx, header, place, part, { received: others.length + 1, uploadBytes }));
    }
    return complete(tx, header, place, part, limits.mayBeSave);
  });
}

/** Holds the caps' lock to the end of the transaction: the next chunk to grow a task reads this one's bytes. */
async function checkOpenCaps(tx: PgTx, limits: UploadLimits, now: number, change: CapChange) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPEN_CAPS_LOCK})`);
  const liveSince = now - limits.ttlMs;
  return capVerdict(limits, now, change, await openUsage(tx, liveSince), await openUsage(tx, liveSince, change.peer));
}

async function storePart(tx: PgTx, header: ChunkHeader, { task, source, playerId, peer, now }: Placement, part: Part, counts: { received: number; uploadBytes: number }): Promise<ChunkOutcome> {
  const { uploadBytes } = counts;
  let taskId: number;
  if (task) {
    taskId = task.id;
    await tx.update(uploads).set({ bytes: uploadBytes, updatedAt: now }).where(eq(uploads.id, task.id));
  } else {
    const values = { uploadId: header.uploadId, totalChunks: header.totalChunks, playerId, peer, bytes: uploadBytes, createdAt: now, updatedAt: now };
    taskId = (await tx.insert(uploads).values(values).returning({ id: uploads.id }))[0]!.id;
    if (source) await tx.update(uploadChunks).set({ taskId }).where(partsOf(source));
  }
  const row = { size: part.body.byteLength, sha256: part.sha256, body: part.body };
  await tx
    .insert(uploadChunks)
    .values({ taskId, chunkIndex: part.chunkIndex, ...row })
    .onConflictDoUpdate({ target: [uploadChunks.taskId, uploadChunks.chunkIndex], set: row });
  return { kind: "partial", taskId, received: counts.received, total: header.totalChunks, uploadBytes };
}

async function complete(tx: PgTx, header: ChunkHeader, { task, source, playerId, now }: Placement, part: Part, mayBeSave: (encrypted: Uint8Array) => boolean): Promise<ChunkOutcome> {
  const columns = { chunkIndex: uploadChunks.chunkIndex, body: uploadChunks.body, sha256: uploadChunks.sha256 };
  const earlier = source ? await tx.select(columns).from(uploadChunks).where(partsOf(source)) : [];
  const parts = [...earlier.filter((held) => held.chunkIndex !== part.chunkIndex), part].sort((a, b) => a.chunkIndex - b.chunkIndex);
  const merged = parts.length === 1 ? part.body : Buffer.concat(parts.map((held) => held.body));
  const savePlayer = playerId ?? UNKNOWN_PLAYER;
  const sha256 = parts.length === 1 ? part.sha256 : undefined;
  const region = regionOfUrl(header.originalUrl);
  const save = await pgStoreSaveOnce(tx, { encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now, sha256, region, dataType: dataTypeOfUrl(header.originalUrl), implausible: !mayBeSave(merged) });
  const chunkHashes = parts.map((held) => held.sha256);
  const completed = { totalChunks: header.totalChunks, playerId, saveId: save.saveId, bytes: 0, chunkHashes, completedAt: now, updatedAt: now };
  if (source) await tx.delete(uploadChunks).where(partsOf(source));
  let taskId: number;
  if (task) {
    taskId = task.id;
    await tx.update(uploads).set(completed).where(eq(uploads.id, task.id));
  } else {
    taskId = (await tx.insert(uploads).values({ uploadId: header.uploadId, createdAt: now, ...completed }).returning({ id: uploads.id }))[0]!.id;
  }
  return { kind: "completed", taskId, saveId: save.saveId, created: save.created, adopted: save.adopted, playerId: savePlayer, saveBytes: merged.byteLength };
}

async function holdResentChunk(tx: PgTx, taskId: number, totalChunks: number, part: Part): Promise<void> {
  await tx
    .insert(uploadChunks)
    .values({ taskId, chunkIndex: part.chunkIndex, size: part.body.byteLength, sha256: part.sha256, body: part.body })
    .onConflictDoNothing();
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(uploadChunks).where(eq(uploadChunks.taskId, taskId));
  if (row!.n >= totalChunks) await tx.delete(uploadChunks).where(eq(uploadChunks.taskId, taskId));
}

/** The queries of ../upload-tasks.ts. */
function liveOpenTasks(tx: PgTx, uploadId: string, liveSince: number): Promise<OpenTask[]> {
  return tx
    .select({ id: uploads.id, totalChunks: uploads.totalChunks, playerId: uploads.playerId, bytes: uploads.bytes })
    .from(uploads)
    .where(and(isNull(uploads.completedAt), gte(uploads.createdAt, liveSince), eq(uploads.uploadId, uploadId)))
    .orderBy(desc(uploads.updatedAt), desc(uploads.id));
}

function recentCompleted(tx: PgTx, uploadId: string, since: number) {
  return tx
    .select({ id: uploads.id, saveId: uploads.saveId, totalChunks: uploads.totalChunks, playerId: uploads.playerId, chunkHashes: uploads.chunkHashes })
    .from(uploads)
    .where(and(eq(uploads.uploadId, uploadId), gte(uploads.completedAt, since)))
    .orderBy(desc(uploads.id))
    .limit(RESEND_LOOKBACK)
    .as("recent");
}

const samePlayer = (column: SQLWrapper, player: string | null) => (player === null ? sql`${column} IS NULL` : sql`${column} = ${player}`);

interface CompletedQuery {
  uploadId: string;
  totalChunks: number;
  player: string | null;
  since: number;
}

async function findResend(tx: PgTx, query: CompletedQuery & { chunkIndex: number; sha256: string }) {
  const recent = recentCompleted(tx, query.uploadId, query.since);
  const [row] = await tx
    .select({ id: recent.id, saveId: recent.saveId })
    .from(recent)
    .where(and(eq(recent.totalChunks, query.totalChunks), sql`${recent.chunkHashes} ->> ${query.chunkIndex}::int = ${query.sha256}`, samePlayer(recent.playerId, query.player)))
    .orderBy(desc(recent.id))
    .limit(1);
  return row;
}

async function findHeldPrefix(tx: PgTx, query: CompletedQuery & { below: number }): Promise<number | undefined> {
  if (query.below === 0) return undefined;
  const recent = recentCompleted(tx, query.uploadId, query.since);
  const [row] = await tx
    .select({ id: recent.id })
    .from(recent)
    .innerJoin(uploadChunks, eq(uploadChunks.taskId, recent.id))
    .where(and(eq(recent.totalChunks, query.totalChunks), samePlayer(recent.playerId, query.player), lt(uploadChunks.chunkIndex, query.below)))
    .orderBy(desc(recent.id))
    .limit(1);
  return row?.id;
}

async function openUsage(tx: PgTx, liveSince: number, peer?: string): Promise<OpenUsage> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)::bigint`.mapWith(Number),
      oldestCreatedAt: sql<number | null>`min(${uploads.createdAt})`.mapWith(Number),
    })
    .from(uploads)
    .where(and(isNull(uploads.completedAt), gte(uploads.createdAt, liveSince), peer === undefined ? undefined : eq(uploads.peer, peer)));
  return row ?? { count: 0, bytes: 0, oldestCreatedAt: null };
}

/** As ../uploads.ts expireUploads, in one process at a time (the housekeeping lock); null when another holds it. */
export function pgExpireUploads(db: PgDb, now: number, ttlMs: number): Promise<number | null> {
  return underHousekeepingLock(db, () =>
    db.transaction(async (tx) => {
      // A task whose upload id a chunk holds right now is left to the next sweep: deleted under that chunk, its
      // part would fail the foreign key (a 500) instead of opening a new task.
      const free = sql`pg_try_advisory_xact_lock(${UPLOAD_ID_LOCK}::int, hashtext(${uploads.uploadId}))`;
      const open = await tx
        .delete(uploads)
        .where(and(isNull(uploads.completedAt), lt(uploads.createdAt, now - ttlMs), free))
        .returning({ id: uploads.id });
      const completed = await tx
        .delete(uploads)
        .where(and(lt(uploads.completedAt, now - COMPLETED_UPLOAD_RETENTION_MS), free))
        .returning({ id: uploads.id });
      return open.length + completed.length;
    }),
  );
}
