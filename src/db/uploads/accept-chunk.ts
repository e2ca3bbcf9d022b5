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
import { lock, run, type Flow, type Param, type Read } from "../dialect/statements.ts";
import { capVerdict, COMPLETED_UPLOAD_RETENTION_MS, isLateFirstPart, realPlayer, taskToJoin, type CapChange } from "./rules.ts";
import * as q from "./statements.ts";
import type { PartRow, PartsSource } from "./statements.ts";

/**
 * PostgreSQL's advisory lock keys (int4 class with a hash for one upload id; one bigint for the caps): constants
 * every process of every version shares. The chunks of one X-Upload-Id are placed one at a time, so two processes
 * never open two tasks for one upload; the caps' lock is held to the end of the transaction, so the next chunk to
 * grow a task reads this one's bytes and processes together never pass the caps. SQLite's single writer needs neither.
 */
export const UPLOAD_ID_LOCK = 0x6d79_7375; // "mysu"
const OPEN_CAPS_LOCK = 0x6d79_7363; // "mysc"

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

function* partSizes(source: PartsSource | undefined): Flow<{ chunkIndex: number; size: number }[]> {
  return source ? yield* run(q.PART_SIZES, q.partsParams(source)) : [];
}

/** Stores one chunk in the store's transaction. */
export function* acceptChunk(chunk: IncomingChunk, sha256: string, limits: UploadLimits): Flow<ChunkOutcome> {
  const { header, body, now } = chunk;
  const { uploadId, chunkIndex, totalChunks } = header;
  const player = realPlayer(chunk.playerId);
  // A single-chunk upload is a whole save: it never joins (or becomes) an open task.
  if (totalChunks > 1) yield* lock(UPLOAD_ID_LOCK, uploadId);
  const task = totalChunks === 1 ? undefined : taskToJoin(yield* run(q.LIVE_OPEN_TASKS, [uploadId, now - limits.ttlMs]), player);
  const taskSource: PartsSource | undefined = task && { taskId: task.id, below: totalChunks };
  const taskParts = yield* partSizes(taskSource);

  const since = now - COMPLETED_UPLOAD_RETENTION_MS;
  // A whole-save chunk can only be a resend of a save already stored: most are not, and the index lookup is cheap.
  const mayBeResend = totalChunks > 1 || (yield* saveWithSha(sha256)) !== undefined;
  const [resent] = mayBeResend ? yield* run(q.RESEND, [uploadId, since, totalChunks, player, chunkIndex, sha256]) : [];
  if (resent && !isLateFirstPart(task, taskParts, header)) {
    if (totalChunks > 1) yield* holdResentChunk(resent.id, totalChunks, { chunkIndex, body, sha256 });
    return { kind: "resend", taskId: resent.id, saveId: resent.saveId };
  }
  if (task && task.totalChunks !== totalChunks) return { kind: "total_mismatch", expected: task.totalChunks };

  let source = taskSource;
  if (!task && totalChunks > 1 && chunkIndex > 0) {
    const [holder] = yield* run(q.HELD_PREFIX, [uploadId, since, totalChunks, player, chunkIndex]);
    if (holder) source = { taskId: holder.id, below: chunkIndex };
  }
  const others = (task ? taskParts : yield* partSizes(source)).filter((part) => part.chunkIndex !== chunkIndex);
  // A resent index replaces its earlier bytes, so only the other chunks count towards the total.
  const uploadBytes = others.reduce((sum, part) => sum + part.size, 0) + body.byteLength;
  if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };

  const place = { task, source, playerId: player, peer: chunk.peer, origin: chunk.origin, now };
  const part = { chunkIndex, body, sha256 };
  if (others.length + 1 < totalChunks) {
    const refused = yield* checkOpenCaps(limits, now, { peer: chunk.peer, newTask: !task, addedBytes: uploadBytes - (task?.bytes ?? 0) });
    return refused ?? (yield* storePart(header, place, part, { received: others.length + 1, uploadBytes }));
  }
  return yield* complete(header, place, part, limits.mayBeSave);
}

function* checkOpenCaps(limits: UploadLimits, now: number, change: CapChange) {
  yield* lock(OPEN_CAPS_LOCK);
  const usage = function* (query: Read<OpenUsage>, params: Param[]): Flow<OpenUsage> {
    const [row] = yield* run(query, params);
    return { count: row?.count ?? 0, bytes: row?.bytes ?? 0, oldestCreatedAt: row?.oldestCreatedAt ?? null };
  };
  const since = now - limits.ttlMs;
  return capVerdict(limits, now, change, yield* usage(q.OPEN_USAGE, [since]), yield* usage(q.OPEN_USAGE_OF_PEER, [since, change.peer]));
}

/** Writes a chunk that leaves its task open; a new task takes the held chunks it starts with. */
function* storePart(header: ChunkHeader, { task, source, playerId, peer, now }: Placement, part: PartRow, counts: { received: number; uploadBytes: number }): Flow<ChunkOutcome> {
  const { uploadBytes } = counts;
  let taskId: number;
  if (task) {
    taskId = task.id;
    yield* run(q.GROW_TASK, [task.id, uploadBytes, now]);
  } else {
    const [row] = yield* run(q.OPEN_TASK, [header.uploadId, header.totalChunks, playerId, peer, uploadBytes, now]);
    taskId = row!.id;
    if (source) yield* run(q.MOVE_PARTS, [...q.partsParams(source), taskId]);
  }
  yield* run(q.PUT_PART, q.partParams(taskId, part));
  return { kind: "partial", taskId, received: counts.received, total: header.totalChunks, uploadBytes };
}

/** The last missing chunk: merges in index order (without writing this chunk first) and stores the save. */
function* complete(header: ChunkHeader, { task, source, playerId, origin, now }: Placement, part: PartRow, mayBeSave: (encrypted: Uint8Array) => boolean): Flow<ChunkOutcome> {
  const earlier = source ? yield* run(q.PARTS, q.partsParams(source)) : [];
  const parts = [...earlier.filter((held) => held.chunkIndex !== part.chunkIndex), part].sort((a, b) => a.chunkIndex - b.chunkIndex);
  const merged = parts.length === 1 ? part.body : Buffer.concat(parts.map((held) => held.body));
  const savePlayer = playerId ?? UNKNOWN_PLAYER;
  const sha256 = parts.length === 1 ? part.sha256 : undefined;
  const save = yield* storeSaveOnce({ encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now, sha256, origin, implausible: !mayBeSave(merged) });
  // Rows migrated from SQLite's old tables carry no sha256: hash those bodies here.
  const done = { totalChunks: header.totalChunks, playerId, saveId: save.saveId, chunkHashes: parts.map((held) => held.sha256 || sha256Hex(held.body)), now };
  if (source) yield* run(q.DROP_PARTS, q.partsParams(source));
  let taskId: number;
  if (task) {
    taskId = task.id;
    yield* run(q.COMPLETE_TASK, q.doneParams(task.id, done));
  } else {
    taskId = (yield* run(q.COMPLETED_TASK, q.doneParams(header.uploadId, done)))[0]!.id;
  }
  return { kind: "completed", taskId, saveId: save.saveId, created: save.created, adopted: save.adopted, playerId: savePlayer, saveBytes: merged.byteLength };
}

/**
 * A resent chunk is held on its completed task (for 24 h at most) so that a new save starting with the same
 * bytes can take it; once every index was sent again the whole upload was a resend and nothing waits for them.
 */
function* holdResentChunk(taskId: number, totalChunks: number, part: PartRow): Flow<void> {
  yield* run(q.HOLD_PART, q.partParams(taskId, part));
  const [held] = yield* run(q.HELD_COUNT, [taskId]);
  if (held!.n >= totalChunks) yield* run(q.DROP_HELD, [taskId]);
}

/** Deletes open tasks older than the TTL (their chunks go with them) and completed tasks older than 24 h (`expired`: the statements, as a store may hold them back). */
export function* expireUploads(expired: ReturnType<typeof q.expiredTasks>, now: number, ttlMs: number): Flow<number> {
  const open = yield* run(expired.open, [now - ttlMs]);
  const completed = yield* run(expired.completed, [now - COMPLETED_UPLOAD_RETENTION_MS]);
  return open.length + completed.length;
}
