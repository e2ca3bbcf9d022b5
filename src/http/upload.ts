/** POST /uploadSaveData (and /uploadMySekai): one save in 1..10 chunks, committed before the 200. */
import { Hono } from "hono";
import { MIB, UPLOAD_PATHS } from "../config.ts";
import { acceptChunk } from "../db/uploads.ts";
import { parseChunkHeaders } from "../ingest/chunk-headers.ts";
import { logInfo, logWarn } from "../log.ts";
import { playerIdFromUrl } from "../save/player-id.ts";
import { declaredTooLarge, readLimited } from "./body.ts";
import type { HttpDeps } from "./deps.ts";

export const MAX_CHUNK_BYTES = MIB;
export const MAX_UPLOAD_BYTES = MIB;

export function uploadRoutes({ committer, config, wakePipeline }: HttpDeps): Hono {
  const app = new Hono();
  for (const path of UPLOAD_PATHS) {
    app.post(path, async (c) => {
      const started = performance.now();
      const parsed = parseChunkHeaders((name) => c.req.header(name));
      if (!parsed.ok) {
        logWarn("UPLOAD", "rejected", { reason: parsed.reason });
        return c.text(parsed.reason, 400);
      }
      const { header } = parsed;
      const chunkLabel = `${header.chunkIndex + 1}/${header.totalChunks}`;
      const tooLarge = () => {
        logWarn("UPLOAD", "chunk too large", { upload: header.uploadId, chunk: chunkLabel });
        return c.text(`chunk exceeds ${MAX_CHUNK_BYTES} bytes`, 413);
      };
      if (declaredTooLarge(c.req.header("content-length"), MAX_CHUNK_BYTES)) return tooLarge();
      const body = await readLimited(c.req.raw.body, MAX_CHUNK_BYTES);
      if (body === null) return tooLarge();
      if (body.byteLength === 0) return c.text("body is empty", 400);

      const chunk = { header, body, playerId: header.originalUrl === null ? null : playerIdFromUrl(header.originalUrl), now: Date.now() };
      const outcome = await committer.run((tx) => acceptChunk(tx, chunk, { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: config.uploadTtlMs }));
      const ms = Math.round(performance.now() - started);
      const base = { upload: header.uploadId, chunk: chunkLabel, bytes: body.byteLength, player: chunk.playerId ?? undefined };
      switch (outcome.kind) {
        case "total_mismatch":
          logWarn("UPLOAD", "total mismatch", { ...base, expected: outcome.expected });
          return c.text(`X-Total-Chunks must stay ${outcome.expected} for this upload`, 400);
        case "too_large":
          logWarn("UPLOAD", "upload too large", { ...base, total: outcome.uploadBytes });
          return c.text(`upload exceeds ${MAX_UPLOAD_BYTES} bytes in total`, 413);
        case "already_completed":
          logInfo("UPLOAD", "already completed", { ...base, save: outcome.saveId });
          return c.text("OK");
        case "partial":
          logInfo("UPLOAD", "chunk stored", { ...base, received: `${outcome.received}/${outcome.total}`, ms });
          return c.text("OK");
        case "completed":
          logInfo("UPLOAD", outcome.created ? "save stored" : "duplicate save", {
            ...base,
            player: outcome.playerId,
            save: outcome.saveId,
            saveBytes: outcome.saveBytes,
            ms,
          });
          if (outcome.created) wakePipeline();
          return c.text("OK");
      }
    });
  }
  return app;
}
