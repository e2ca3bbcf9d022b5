/** Validates the upload headers of one chunk. Plain strings in, a typed chunk header or a reason out. */
import { MAX_CHUNKS, UPLOAD_ID_PATTERN } from "../contract.ts";

const INTEGER = /^[+-]?\d{1,6}$/;

export interface ChunkHeader {
  uploadId: string;
  chunkIndex: number;
  totalChunks: number;
  originalUrl: string | null;
}

export type ChunkHeaderResult = { ok: true; header: ChunkHeader } | { ok: false; reason: string };

export function parseChunkHeaders(get: (name: string) => string | null | undefined): ChunkHeaderResult {
  const uploadId = get("x-upload-id")?.trim();
  if (!uploadId) return { ok: false, reason: "X-Upload-Id is required" };
  if (!UPLOAD_ID_PATTERN.test(uploadId)) return { ok: false, reason: `X-Upload-Id must match ${UPLOAD_ID_PATTERN.source}` };

  const totalText = get("x-total-chunks")?.trim();
  if (!totalText) return { ok: false, reason: "X-Total-Chunks is required" };
  if (!INTEGER.test(totalText)) return { ok: false, reason: "X-Total-Chunks must be an integer" };
  const totalChunks = Number(totalText);
  if (totalChunks < 1 || totalChunks > MAX_CHUNKS) return { ok: false, reason: `X-Total-Chunks must be 1..${MAX_CHUNKS}` };

  const indexText = get("x-chunk-index")?.trim();
  if (!indexText) return { ok: false, reason: "X-Chunk-Index is required" };
  if (!INTEGER.test(indexText)) return { ok: false, reason: "X-Chunk-Index must be an integer" };
  const chunkIndex = Number(indexText);
  if (chunkIndex < 0 || chunkIndex >= totalChunks) return { ok: false, reason: `X-Chunk-Index must be 0..${totalChunks - 1}` };

  return { ok: true, header: { uploadId, chunkIndex, totalChunks, originalUrl: get("x-original-url") ?? null } };
}
