/**
 * Chunk assembly, once for both stores. A task is keyed by its X-Upload-Id and its player; every chunk is stored
 * and counted in one transaction, the last one turns the task into a save. A 200 never drops bytes: a chunk that
 * only repeats a completed task is a resend, any other chunk lands in an open task.
 */
import type { ChunkHeader } from "../../ingest/chunk-headers.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../store/ports/ingest.ts";
import type { OpenTask, OpenUsage } from "../../store/model/uploads.ts";
import type { SaveOrigin } from "../../store/model/saves.ts";
import { saveWithSha, storeSaveOnce } from "../saves/rules.ts";
import { step, type Maybe, type SqlRunner, type Steps } from "../dialect/steps.ts";
import { capVerdict, COMPLETED_UPLOAD_RETENTION_MS, isLateFirstPart, realPlayer, taskToJoin, type CapChange } from "./rules.ts";
import { uploadStatements as q, type PartRow, type PartsSource } from "./statements.ts";

/** What a store gives the chunk rule: the save rule's parts, and the locks N processes need (SQLite's single writer needs none). */
export interface UploadDialect {
  sql: SqlRunner;
  /** The chunks of one X-Upload-Id are placed one at a time: two processes never open two tasks for one upload. */
  lockUpload(uploadId: string): Maybe<unknown>;
  /** Held to the end of the transaction: the next chunk to grow a task reads this one's bytes, so processes together never pass the caps. */
  lockOpenCaps(): Maybe<unknown>;
}

/** Where a chunk goes: the open task it joins (or a new one), and where its earlier parts are. */
interface Placement {
  task: OpenTask | undefined;
  /** The open task it joins (all its chunks), or, for a new task, the chunks a completed task of this id holds as resends below this index. */
  source: PartsSource | undefined;
  playerId: string | null;
  peer: string;
  /** What the chunk's request said of the save it may complete. */
  origin: SaveOrigin;
  now: number;
}

function* partSizes(store: UploadDialect, source: PartsSource | undefined): Steps<{ chunkIndex: number; size: number }[]> {
  return source ? yield* step(store.sql.all<{ chunkIndex: number; size: number }>(q.partSizes(source))) : [];
}

/** Stores one chunk in the store's transaction. */
export function* acceptChunkSteps(store: UploadDialect, chunk: IncomingChunk, sha256: string, limits: UploadLimits): Steps<ChunkOutcome> {
  const { header, body, now } = chunk;
  const { uploadId, chunkIndex, totalChunks } = header;
  const player = realPlayer(chunk.playerId);
  // A single-chunk upload is a whole save: it never joins (or becomes) an open task.
  if (totalChunks > 1) yield* step(store.lockUpload(uploadId));
  const task = totalChunks === 1 ? undefined : taskToJoin(yield* step(store.sql.all<OpenTask>(q.liveOpenTasks(uploadId, now - limits.ttlMs))), player);
  const taskParts = yield* partSizes(store, task && { taskId: task.id, below: totalChunks });

  const since = now - COMPLETED_UPLOAD_RETENTION_MS;
  // A whole-save chunk can only be a resend of a save already stored: most are not, and the index lookup is cheap.
  const mayBeResend = totalChunks > 1 || (yield* step(store.sql.flow(saveWithSha(sha256)))) !== undefined;
  const [resent] = mayBeResend ? yield* step(store.sql.all<{ id: number; saveId: number | null }>(q.resend({ uploadId, chunkIndex, totalChunks, sha256, player, since }))) : [];
  if (resent && !isLateFirstPart(task, taskParts, header)) {
    if (totalChunks > 1) yield* holdResentChunk(store, resent.id, totalChunks, { chunkIndex, body, sha256 });
    return { kind: "resend", taskId: resent.id, saveId: resent.saveId };
  }
  if (task && task.totalChunks !== totalChunks) return { kind: "total_mismatch", expected: task.totalChunks };

  let source: PartsSource | undefined;
  if (task) source = { taskId: task.id, below: totalChunks };
  else if (totalChunks > 1 && chunkIndex > 0) {
    const [holder] = yield* step(store.sql.all<{ id: number }>(q.heldPrefix({ uploadId, totalChunks, player, below: chunkIndex, since })));
    if (holder) source = { taskId: holder.id, below: chunkIndex };
  }
  const others = (task ? taskParts : yield* partSizes(store, source)).filter((part) => part.chunkIndex !== chunkIndex);
  // A resent index replaces its earlier bytes, so only the other chunks count towards the total.
  const uploadBytes = others.reduce((sum, part) => sum + part.size, 0) + body.byteLength;
  if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };

  const place = { task, source, playerId: player, peer: chunk.peer, origin: chunk.origin, now };
  const part = { chunkIndex, body, sha256 };
  if (others.length + 1 < totalChunks) {
    const refused = yield* checkOpenCaps(store, limits, now, { peer: chunk.peer, newTask: !task, addedBytes: uploadBytes - (task?.bytes ?? 0) });
    return refused ?? (yield* storePart(store, header, place, part, { received: others.length + 1, uploadBytes }));
  }
  return yield* complete(store, header, place, part, limits.mayBeSave);
}

function* checkOpenCaps(store: UploadDialect, limits: UploadLimits, now: number, change: CapChange) {
  yield* step(store.lockOpenCaps());
  const usage = function* (peer?: string): Steps<OpenUsage> {
    const [row] = yield* step(store.sql.all<OpenUsage>(q.openUsage(now - limits.ttlMs, peer)));
    // PostgreSQL hands sums and bigints over as text.
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0), oldestCreatedAt: row?.oldestCreatedAt == null ? null : Number(row.oldestCreatedAt) };
  };
  return capVerdict(limits, now, change, yield* usage(), yield* usage(change.peer));
}

/** Writes a chunk that leaves its task open; a new task takes the held chunks it starts with. */
function* storePart(store: UploadDialect, header: ChunkHeader, { task, source, playerId, peer, now }: Placement, part: PartRow, counts: { received: number; uploadBytes: number }): Steps<ChunkOutcome> {
  const { uploadBytes } = counts;
  let taskId: number;
  if (task) {
    taskId = task.id;
    yield* step(store.sql.run(q.growTask(task.id, uploadBytes, now)));
  } else {
    const [row] = yield* step(store.sql.all<{ id: number }>(q.openTask({ uploadId: header.uploadId, totalChunks: header.totalChunks, playerId, peer, bytes: uploadBytes, now })));
    taskId = row!.id;
    if (source) yield* step(store.sql.run(q.moveParts(source, taskId)));
  }
  yield* step(store.sql.run(q.putPart(taskId, part)));
  return { kind: "partial", taskId, received: counts.received, total: header.totalChunks, uploadBytes };
}

/** The last missing chunk: merges in index order (without writing this chunk first) and stores the save. */
function* complete(store: UploadDialect, header: ChunkHeader, { task, source, playerId, origin, now }: Placement, part: PartRow, mayBeSave: (encrypted: Uint8Array) => boolean): Steps<ChunkOutcome> {
  const earlier = source ? yield* step(store.sql.all<PartRow>(q.parts(source))) : [];
  const parts = [...earlier.filter((held) => held.chunkIndex !== part.chunkIndex), part].sort((a, b) => a.chunkIndex - b.chunkIndex);
  const merged = parts.length === 1 ? part.body : Buffer.concat(parts.map((held) => held.body));
  const savePlayer = playerId ?? UNKNOWN_PLAYER;
  const sha256 = parts.length === 1 ? part.sha256 : undefined;
  const save = yield* step(store.sql.flow(storeSaveOnce({ encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now, sha256, origin, implausible: !mayBeSave(merged) })));
  // Rows migrated from SQLite's old tables carry no sha256: hash those bodies here.
  const done = { totalChunks: header.totalChunks, playerId, saveId: save.saveId, chunkHashes: parts.map((held) => held.sha256 || sha256Hex(held.body)), now };
  if (source) yield* step(store.sql.run(q.dropParts(source)));
  let taskId: number;
  if (task) {
    taskId = task.id;
    yield* step(store.sql.run(q.completeTask(task.id, done)));
  } else {
    taskId = (yield* step(store.sql.all<{ id: number }>(q.completedTask(header.uploadId, done))))[0]!.id;
  }
  return { kind: "completed", taskId, saveId: save.saveId, created: save.created, adopted: save.adopted, playerId: savePlayer, saveBytes: merged.byteLength };
}

/**
 * A resent chunk is held on its completed task (for 24 h at most) so that a new save starting with the same
 * bytes can take it; once every index was sent again the whole upload was a resend and nothing waits for them.
 */
function* holdResentChunk(store: UploadDialect, taskId: number, totalChunks: number, part: PartRow): Steps<void> {
  yield* step(store.sql.run(q.holdPart(taskId, part)));
  const [held] = yield* step(store.sql.all<{ n: number }>(q.heldCount(taskId)));
  if (held!.n >= totalChunks) yield* step(store.sql.run(q.dropHeld(taskId)));
}

/** Deletes open tasks older than the TTL (their chunks go with them) and completed tasks older than 24 h; `onlyIf` as the statements take it. */
export function* expireUploadsSteps(store: UploadDialect, now: number, ttlMs: number, onlyIf: Parameters<typeof q.expiredOpen>[1]): Steps<number> {
  const open = yield* step(store.sql.all(q.expiredOpen(now - ttlMs, onlyIf)));
  const completed = yield* step(store.sql.all(q.expiredCompleted(now - COMPLETED_UPLOAD_RETENTION_MS, onlyIf)));
  return open.length + completed.length;
}
