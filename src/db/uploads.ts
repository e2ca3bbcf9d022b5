/** Chunk assembly: every chunk is stored and counted in one transaction; the last one turns the upload into a save. */
import { and, desc, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { sha256Hex } from "./saves.ts";
import { UNKNOWN_PLAYER } from "../save/player-id.ts";
import type { ChunkHeader } from "../ingest/chunk-headers.ts";
import type { Db, Tx } from "./open.ts";
import { storeSaveOnce } from "./saves.ts";
import { uploadChunks, uploads } from "./schema.ts";

/** Completed uploads are remembered this long so a resent chunk is answered without a second save. */
export const COMPLETED_UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface IncomingChunk {
  header: ChunkHeader;
  body: Uint8Array;
  /** Player id parsed from this chunk's X-Original-Url, or null when the header is absent. */
  playerId: string | null;
  now: number;
}

export type ChunkOutcome =
  | { kind: "partial"; received: number; total: number; uploadBytes: number }
  | { kind: "completed"; saveId: number; created: boolean; playerId: string; saveBytes: number }
  | { kind: "already_completed"; saveId: number | null }
  | { kind: "total_mismatch"; expected: number }
  | { kind: "too_large"; uploadBytes: number };

/** Stores one chunk; call inside a transaction (the route uses the group committer). */
export function acceptChunk(tx: Tx, chunk: IncomingChunk, limits: { maxUploadBytes: number; ttlMs: number }): ChunkOutcome {
  const { header, body, now } = chunk;
  let upload = tx.select().from(uploads).where(eq(uploads.uploadId, header.uploadId)).orderBy(desc(uploads.id)).get();
  if (upload && upload.completedAt === null && upload.createdAt < now - limits.ttlMs) {
    tx.delete(uploads).where(eq(uploads.id, upload.id)).run();
    upload = undefined;
  }
  if (upload?.completedAt != null) return { kind: "already_completed", saveId: upload.saveId };
  if (upload && upload.totalChunks !== header.totalChunks) return { kind: "total_mismatch", expected: upload.totalChunks };

  const stored = upload
    ? tx.select({ chunkIndex: uploadChunks.chunkIndex, size: uploadChunks.size }).from(uploadChunks).where(eq(uploadChunks.taskId, upload.id)).all()
    : [];
  const others = stored.filter((part) => part.chunkIndex !== header.chunkIndex);
  // A resent index replaces its earlier bytes, so only the other chunks count towards the total.
  const uploadBytes = others.reduce((sum, part) => sum + part.size, 0) + body.byteLength;
  if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };
  // Any chunk may carry X-Original-Url; a real (digits) id wins over `unknown`.
  const real = (id: string | null | undefined) => (id && id !== UNKNOWN_PLAYER ? id : null);
  const playerId = real(upload?.playerId) ?? real(chunk.playerId) ?? upload?.playerId ?? chunk.playerId;

  if (others.length + 1 < header.totalChunks) {
    let taskId: number;
    if (upload) {
      taskId = upload.id;
      tx.update(uploads).set({ playerId, bytes: uploadBytes, updatedAt: now }).where(eq(uploads.id, upload.id)).run();
    } else {
      taskId = tx
        .insert(uploads)
        .values({ uploadId: header.uploadId, totalChunks: header.totalChunks, playerId, bytes: uploadBytes, createdAt: now, updatedAt: now })
        .returning({ id: uploads.id })
        .get().id;
    }
    const bytes = Buffer.from(body);
    const sha256 = sha256Hex(body);
    tx.insert(uploadChunks)
      .values({ taskId, chunkIndex: header.chunkIndex, size: body.byteLength, sha256, body: bytes })
      .onConflictDoUpdate({ target: [uploadChunks.taskId, uploadChunks.chunkIndex], set: { size: body.byteLength, sha256, body: bytes } })
      .run();
    return { kind: "partial", received: others.length + 1, total: header.totalChunks, uploadBytes };
  }

  // The last missing chunk: merge in index order without writing it to the chunk table first.
  const earlier = upload
    ? tx.select({ chunkIndex: uploadChunks.chunkIndex, body: uploadChunks.body }).from(uploadChunks).where(eq(uploadChunks.taskId, upload.id)).all()
    : [];
  const parts = [...earlier.filter((part) => part.chunkIndex !== header.chunkIndex), { chunkIndex: header.chunkIndex, body }].sort(
    (a, b) => a.chunkIndex - b.chunkIndex,
  );
  const merged = Buffer.concat(parts.map((part) => part.body));
  const savePlayer = playerId ?? UNKNOWN_PLAYER;
  const save = storeSaveOnce(tx, { encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now });
  const chunkHashes = parts.map((part) => sha256Hex(part.body));
  const completed = { totalChunks: header.totalChunks, playerId, saveId: save.saveId, bytes: 0, chunkHashes, completedAt: now, updatedAt: now };
  if (upload) {
    tx.delete(uploadChunks).where(eq(uploadChunks.taskId, upload.id)).run();
    tx.update(uploads).set(completed).where(eq(uploads.id, upload.id)).run();
  } else {
    tx.insert(uploads).values({ uploadId: header.uploadId, createdAt: now, ...completed }).run();
  }
  return { kind: "completed", saveId: save.saveId, created: save.created, playerId: savePlayer, saveBytes: merged.byteLength };
}

/** Deletes incomplete uploads older than the TTL (their chunks go with them) and long-completed upload markers. */
export function expireUploads(db: Db, now: number, ttlMs: number): number {
  const result = db
    .delete(uploads)
    .where(
      or(
        and(isNull(uploads.completedAt), lt(uploads.createdAt, now - ttlMs)),
        and(isNotNull(uploads.completedAt), lt(uploads.completedAt, now - COMPLETED_UPLOAD_RETENTION_MS)),
      ),
    )
    .returning({ id: uploads.id }).all();
  return result.length;
}
