/**
 * Chunk assembly. A task is keyed by its X-Upload-Id and its player; every chunk is stored and counted in one
 * transaction, the last one turns the task into a save. A 200 never drops bytes: a chunk that only repeats a
 * completed task is a resend, any other chunk lands in an open task.
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { dataTypeOfUrl } from "../capture/data-types.ts";
import { regionOfUrl } from "../capture/regions.ts";
import { UNKNOWN_PLAYER } from "../save/player-id.ts";
import type { ChunkHeader } from "../ingest/chunk-headers.ts";
import { prepared, type Db, type Tx } from "./open.ts";
import { sha256Hex } from "../sha256.ts";
import { saveWithSha, storeSaveOnce } from "./saves.ts";
import { uploadChunks, uploads } from "./schema.ts";
import { checkOpenCaps, type OverCap } from "./open-upload-caps.ts";
import { findHeldPrefix, findResend, liveOpenTasks, type OpenTask } from "./upload-tasks.ts";

/** Completed tasks are remembered this long so a resent chunk is answered without a second save. */
export const COMPLETED_UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface IncomingChunk {
  header: ChunkHeader;
  body: Uint8Array;
  /** Player id parsed from this chunk's X-Original-Url (`unknown` when it names none), or null without the header. */
  playerId: string | null;
  /** The address it came from (src/http/peer.ts). */
  peer: string;
  now: number;
}

export interface UploadLimits {
  maxUploadBytes: number;
  ttlMs: number;
  /** Open (incomplete) tasks at once. */
  maxOpen: number;
  /** Bytes held by open tasks. */
  maxOpenBytes: number;
  /** The share (0..1] of both caps one peer may hold. */
  peerShare: number;
  /** Whether merged bytes can be a save under the configured keys (src/save/plausible.ts). */
  mayBeSave: (encrypted: Uint8Array) => boolean;
  /** Asked once before a new save commits: whether this process's own free slot takes its job, so that a hub's other processes need not be woken. */
  keepsNewSave?: () => boolean;
}

export type ChunkOutcome =
  | { kind: "partial"; taskId: number; received: number; total: number; uploadBytes: number }
  | { kind: "completed"; taskId: number; saveId: number; created: boolean; adopted: boolean; playerId: string; saveBytes: number }
  | { kind: "resend"; taskId: number; saveId: number | null }
  | { kind: "total_mismatch"; expected: number }
  | { kind: "too_large"; uploadBytes: number }
  | OverCap;

/** A real (digits) player id, or null for none and `unknown`. */
export function realPlayer(id: string | null | undefined): string | null {
  return id && id !== UNKNOWN_PLAYER ? id : null;
}

/**
 * The open task a chunk joins: the latest whose first chunk came with the same player, or with none when this
 * one names none. A chunk never joins another player's task, nor a stranger's chunk a player's.
 */
export function taskToJoin(open: OpenTask[], player: string | null): OpenTask | undefined {
  return open.find((task) => realPlayer(task.playerId) === player);
}

/**
 * Where the chunk's earlier parts are: the open task it joins (all its chunks), or, for a new task, the chunks a
 * completed task of this id holds as resends below this index.
 */
interface PartsSource {
  taskId: number;
  below: number;
}

const partsOf = (source: PartsSource) => and(eq(uploadChunks.taskId, source.taskId), lt(uploadChunks.chunkIndex, source.below));

function partSizes(tx: Tx, source: PartsSource | undefined): { chunkIndex: number; size: number }[] {
  if (!source) return [];
  return tx.select({ chunkIndex: uploadChunks.chunkIndex, size: uploadChunks.size }).from(uploadChunks).where(partsOf(source)).all();
}

/** Stores one chunk (the route runs it in the group committer's transaction). */
export function acceptChunk(tx: Tx, chunk: IncomingChunk, limits: UploadLimits): ChunkOutcome {
  const { header, body, now } = chunk;
  const { uploadId, chunkIndex, totalChunks } = header;
  const player = realPlayer(chunk.playerId);
  const sha256 = sha256Hex(body);
  // A single-chunk upload is a whole save: it never joins (or becomes) an open task.
  const task = totalChunks === 1 ? undefined : taskToJoin(liveOpenTasks(tx, uploadId, now - limits.ttlMs), player);
  const taskParts = partSizes(tx, task && { taskId: task.id, below: totalChunks });

  const since = now - COMPLETED_UPLOAD_RETENTION_MS;
  // A whole-save chunk can only be a resend of a save already stored: most are not, and the index lookup is cheap.
  const mayBeResend = totalChunks > 1 || saveWithSha(tx, sha256) !== undefined;
  const resent = mayBeResend ? findResend(tx, { uploadId, chunkIndex, totalChunks, sha256, player, since }) : undefined;
  if (resent && !isLateFirstPart(task, taskParts, header)) {
    if (totalChunks > 1) holdResentChunk(tx, resent.id, totalChunks, { chunkIndex, body, sha256 });
    return { kind: "resend", taskId: resent.id, saveId: resent.saveId };
  }
  if (task && task.totalChunks !== totalChunks) return { kind: "total_mismatch", expected: task.totalChunks };

  let source: PartsSource | undefined;
  if (task) source = { taskId: task.id, below: totalChunks };
  else if (totalChunks > 1) {
    const holder = findHeldPrefix(tx, { uploadId, totalChunks, player, below: chunkIndex, since });
    if (holder !== undefined) source = { taskId: holder, below: chunkIndex };
  }
  const others = (task ? taskParts : partSizes(tx, source)).filter((part) => part.chunkIndex !== chunkIndex);
  // A resent index replaces its earlier bytes, so only the other chunks count towards the total.
  const uploadBytes = others.reduce((sum, part) => sum + part.size, 0) + body.byteLength;
  if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };

  const place = { task, source, playerId: player, peer: chunk.peer, now };
  const part = { chunkIndex, body, sha256 };
  if (others.length + 1 < totalChunks) {
    const refused = checkOpenCaps(tx, limits, now, { peer: chunk.peer, newTask: !task, addedBytes: uploadBytes - (task?.bytes ?? 0) });
    return refused ?? storePart(tx, header, place, part, { received: others.length + 1, uploadBytes });
  }
  return complete(tx, header, place, part, limits.mayBeSave);
}

/**
 * Saves share leading chunks (AES-CBC with a fixed IV), so a "resend" may be the start of a new save whose
 * later chunks came first: it then joins that task.
 */
export function isLateFirstPart(task: OpenTask | undefined, taskParts: { chunkIndex: number }[], { chunkIndex, totalChunks }: ChunkHeader): boolean {
  return (
    task?.totalChunks === totalChunks &&
    taskParts.some((part) => part.chunkIndex > chunkIndex) &&
    !taskParts.some((part) => part.chunkIndex === chunkIndex)
  );
}

/** Where a chunk goes: the open task it joins (or a new one), and the parts it is assembled with. */
export interface Placement {
  task: OpenTask | undefined;
  source: PartsSource | undefined;
  playerId: string | null;
  peer: string;
  now: number;
}

export interface Part {
  chunkIndex: number;
  body: Uint8Array;
  sha256: string;
}

/** Writes a chunk that leaves its task open; a new task takes the held chunks it starts with. */
function storePart(
  tx: Tx,
  header: ChunkHeader,
  { task, source, playerId, peer, now }: Placement,
  part: Part,
  counts: { received: number; uploadBytes: number },
): ChunkOutcome {
  const { uploadBytes } = counts;
  let taskId: number;
  if (task) {
    taskId = task.id;
    tx.update(uploads).set({ bytes: uploadBytes, updatedAt: now }).where(eq(uploads.id, task.id)).run();
  } else {
    const values = { uploadId: header.uploadId, totalChunks: header.totalChunks, playerId, peer, bytes: uploadBytes, createdAt: now, updatedAt: now };
    taskId = tx.insert(uploads).values(values).returning({ id: uploads.id }).get().id;
    if (source) tx.update(uploadChunks).set({ taskId }).where(partsOf(source)).run();
  }
  const row = { size: part.body.byteLength, sha256: part.sha256, body: part.body };
  tx.insert(uploadChunks)
    .values({ taskId, chunkIndex: part.chunkIndex, ...row })
    .onConflictDoUpdate({ target: [uploadChunks.taskId, uploadChunks.chunkIndex], set: row })
    .run();
  return { kind: "partial", taskId, received: counts.received, total: header.totalChunks, uploadBytes };
}

/** A whole save in one chunk (most uploads) ends in this insert (src/db/open.ts `prepared`). */
const completedTaskInsert = (tx: Tx) =>
  tx
    .insert(uploads)
    .values({
      uploadId: sql.placeholder("uploadId"),
      totalChunks: sql.placeholder("totalChunks"),
      playerId: sql.placeholder("playerId"),
      saveId: sql.placeholder("saveId"),
      bytes: 0,
      chunkHashes: sql.placeholder("chunkHashes"),
      completedAt: sql.placeholder("now"),
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    })
    .returning({ id: uploads.id })
    .prepare();

/** The last missing chunk: merges in index order (without writing this chunk first) and stores the save. */
function complete(tx: Tx, header: ChunkHeader, { task, source, playerId, now }: Placement, part: Part, mayBeSave: (encrypted: Uint8Array) => boolean): ChunkOutcome {
  const columns = { chunkIndex: uploadChunks.chunkIndex, body: uploadChunks.body, sha256: uploadChunks.sha256 };
  const earlier = source ? tx.select(columns).from(uploadChunks).where(partsOf(source)).all() : [];
  const parts = [...earlier.filter((held) => held.chunkIndex !== part.chunkIndex), part].sort((a, b) => a.chunkIndex - b.chunkIndex);
  const merged = parts.length === 1 ? part.body : Buffer.concat(parts.map((held) => held.body));
  const savePlayer = playerId ?? UNKNOWN_PLAYER;
  const sha256 = parts.length === 1 ? part.sha256 : undefined;
  const region = regionOfUrl(header.originalUrl);
  const save = storeSaveOnce(tx, { encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now, sha256, region, dataType: dataTypeOfUrl(header.originalUrl), implausible: !mayBeSave(merged) });
  // Rows migrated from the old tables carry no sha256: hash those bodies here.
  const chunkHashes = parts.map((held) => held.sha256 || sha256Hex(held.body));
  const completed = { totalChunks: header.totalChunks, playerId, saveId: save.saveId, bytes: 0, chunkHashes, completedAt: now, updatedAt: now };
  if (source) tx.delete(uploadChunks).where(partsOf(source)).run();
  let taskId: number;
  if (task) {
    taskId = task.id;
    tx.update(uploads).set(completed).where(eq(uploads.id, task.id)).run();
  } else {
    const { totalChunks, saveId } = completed;
    taskId = prepared(tx, completedTaskInsert).get({ uploadId: header.uploadId, totalChunks, playerId, saveId, chunkHashes, now })!.id;
  }
  return { kind: "completed", taskId, saveId: save.saveId, created: save.created, adopted: save.adopted, playerId: savePlayer, saveBytes: merged.byteLength };
}

/**
 * A resent chunk is held on its completed task (for 24 h at most) so that a new save starting with the same
 * bytes can take it; once every index was sent again the whole upload was a resend and nothing waits for them.
 */
function holdResentChunk(tx: Tx, taskId: number, totalChunks: number, part: { chunkIndex: number; body: Uint8Array; sha256: string }): void {
  tx.insert(uploadChunks)
    .values({ taskId, chunkIndex: part.chunkIndex, size: part.body.byteLength, sha256: part.sha256, body: part.body })
    .onConflictDoNothing()
    .run();
  const held = tx.select({ n: sql<number>`count(*)` }).from(uploadChunks).where(eq(uploadChunks.taskId, taskId)).get()!.n;
  if (held >= totalChunks) tx.delete(uploadChunks).where(eq(uploadChunks.taskId, taskId)).run();
}

/** Deletes open tasks older than the TTL (their chunks go with them) and completed tasks older than 24 h. */
export function expireUploads(db: Db, now: number, ttlMs: number): number {
  const open = db
    .delete(uploads)
    .where(and(isNull(uploads.completedAt), lt(uploads.createdAt, now - ttlMs)))
    .returning({ id: uploads.id })
    .all();
  const completed = db
    .delete(uploads)
    .where(lt(uploads.completedAt, now - COMPLETED_UPLOAD_RETENTION_MS))
    .returning({ id: uploads.id })
    .all();
  return open.length + completed.length;
}
