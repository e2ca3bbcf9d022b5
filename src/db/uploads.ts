/** Chunk assembly: every chunk is stored and counted in one transaction; the last one turns the upload into a save. */
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { ChunkHeader } from "../ingest/chunk-headers.ts";
import type { Db } from "./open.ts";
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

export function acceptChunk(db: Db, chunk: IncomingChunk, limits: { maxUploadBytes: number; ttlMs: number }): ChunkOutcome {
  const { header, body, now } = chunk;
  return db.transaction((tx) => {
    let upload = tx.select().from(uploads).where(eq(uploads.id, header.uploadId)).get();
    if (upload && upload.completedAt === null && upload.createdAt < now - limits.ttlMs) {
      tx.delete(uploads).where(eq(uploads.id, upload.id)).run();
      upload = undefined;
    }
    if (upload?.completedAt != null) return { kind: "already_completed", saveId: upload.saveId };
    if (upload && upload.totalChunks !== header.totalChunks) return { kind: "total_mismatch", expected: upload.totalChunks };

    const previous = upload
      ? tx
          .select({ size: uploadChunks.size })
          .from(uploadChunks)
          .where(and(eq(uploadChunks.uploadId, header.uploadId), eq(uploadChunks.chunkIndex, header.chunkIndex)))
          .get()
      : undefined;
    const uploadBytes = (upload?.receivedBytes ?? 0) - (previous?.size ?? 0) + body.byteLength;
    if (uploadBytes > limits.maxUploadBytes) return { kind: "too_large", uploadBytes };

    const playerId = upload?.playerId ?? chunk.playerId;
    if (upload) {
      tx.update(uploads).set({ receivedBytes: uploadBytes, playerId, updatedAt: now }).where(eq(uploads.id, header.uploadId)).run();
    } else {
      tx.insert(uploads)
        .values({ id: header.uploadId, totalChunks: header.totalChunks, receivedBytes: uploadBytes, playerId, createdAt: now, updatedAt: now })
        .run();
    }
    tx.insert(uploadChunks)
      .values({ uploadId: header.uploadId, chunkIndex: header.chunkIndex, size: body.byteLength, body: Buffer.from(body) })
      .onConflictDoUpdate({
        target: [uploadChunks.uploadId, uploadChunks.chunkIndex],
        set: { size: body.byteLength, body: Buffer.from(body) },
      })
      .run();

    const received = tx
      .select({ count: sql<number>`count(*)` })
      .from(uploadChunks)
      .where(eq(uploadChunks.uploadId, header.uploadId))
      .get()!.count;
    if (received < header.totalChunks) return { kind: "partial", received, total: header.totalChunks, uploadBytes };

    const parts = tx
      .select({ body: uploadChunks.body })
      .from(uploadChunks)
      .where(eq(uploadChunks.uploadId, header.uploadId))
      .orderBy(asc(uploadChunks.chunkIndex))
      .all();
    const merged = Buffer.concat(parts.map((part) => part.body));
    const savePlayer = playerId ?? "unknown";
    const stored = storeSaveOnce(tx, { encrypted: merged, playerId: savePlayer, source: "upload", receivedAt: now });
    tx.delete(uploadChunks).where(eq(uploadChunks.uploadId, header.uploadId)).run();
    tx.update(uploads).set({ completedAt: now, saveId: stored.saveId, updatedAt: now }).where(eq(uploads.id, header.uploadId)).run();
    return { kind: "completed", saveId: stored.saveId, created: stored.created, playerId: savePlayer, saveBytes: merged.byteLength };
  }, { behavior: "immediate" });
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
