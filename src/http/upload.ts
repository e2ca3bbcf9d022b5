/**
 * POST /uploadSaveData (and /uploadMySekai): one save in 1..10 chunks, committed before the 200.
 * POST /p/<playerToken>/uploadSaveData: the same through a hub player's link, for that player only.
 */
import { Hono, type Context } from "hono";
import { MAX_CHUNK_BYTES, MAX_UPLOAD_BYTES, UPLOAD_PATHS } from "../contract.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../store/ports/ingest.ts";
import { cappedMessage, declaredTooLarge, readCapped } from "../ingest/capped-body.ts";
import { parseChunkHeaders } from "../ingest/chunk-headers.ts";
import { logInfo, logWarn } from "../log.ts";
import { metrics } from "../metrics.ts";
import { playerIdFromUrl, refusedPlayerId } from "../save/player-id.ts";
import { mayBeSave } from "../save/plausible.ts";
import { saveOrigin } from "../ingest/save-origin.ts";
import { peerOf } from "./peer.ts";
import type { HttpDeps } from "./deps.ts";

/** The upload paths of a player link (the guards in app.ts cover them too). */
export const PLAYER_UPLOAD_PATHS = UPLOAD_PATHS.map((path) => `/p/:token${path}`);

const ONLY_OWN_PLAYER = "this link uploads for its own player only (X-Original-Url must name that player)";
/** A player who has uploaded through their own link is never uploaded for without it again (issue 49). */
const linkOnly = (playerId: string) =>
  `player ${playerId} uploads only through their own link: install the module from their page (/p/…) again, or the owner runs \`cli players unlock ${playerId}\``;

export function uploadRoutes({ uploads, config, wakePipeline, keepsNextJob, owner }: HttpDeps): Hono {
  const app = new Hono();
  const limits: UploadLimits = {
    maxUploadBytes: MAX_UPLOAD_BYTES,
    ttlMs: config.uploadTtlMs,
    maxOpen: config.uploads.maxOpen,
    maxOpenBytes: config.uploads.maxOpenBytes,
    peerShare: config.budget.peerShare,
    mayBeSave: (encrypted: Uint8Array) => mayBeSave(encrypted, config.keys),
    keepsNewSave: keepsNextJob,
  };
  for (const path of UPLOAD_PATHS) {
    // UPLOAD_TOKEN is checked in front of every guard (src/http/app.ts).
    app.post(path, (c) => accept(c, null));
  }
  // The link's token stands in for UPLOAD_TOKEN: each player's link is a secret of its own.
  for (const path of PLAYER_UPLOAD_PATHS) {
    app.post(path, async (c) => {
      const linked = await owner.links.playerByToken(c.req.param("token") ?? "");
      if (linked === null) return c.text("not found", 404);
      const answer = await accept(c, linked.playerId);
      if (answer.status === 200 && linked.linkOnlySince === null) {
        // The chunk is committed whatever happens here: a failed mark is made by the player's next upload.
        await owner.links.markLinkOnly(linked.playerId).catch((error) => logWarn("UPLOAD", "could not mark the player link-only; the next upload through the link does", { player: linked.playerId, error: String(error).slice(0, 200) }));
      }
      return answer;
    });
  }
  return app;

  /** `onlyPlayer`: the one player id this request may upload for. */
  async function accept(c: Context, onlyPlayer: string | null): Promise<Response> {
    const started = performance.now();
    const parsed = parseChunkHeaders((name) => c.req.header(name));
    if (!parsed.ok) {
      logWarn("UPLOAD", "rejected", { reason: parsed.reason });
      return c.text(parsed.reason, 400);
    }
    const { header } = parsed;
    const named = header.originalUrl === null ? null : playerIdFromUrl(header.originalUrl);
    const refused = named === null ? null : refusedPlayerId(named);
    if (refused !== null) {
      logWarn("UPLOAD", "rejected", { status: 400, reason: refused });
      return c.text(`X-Original-Url: ${refused}`, 400);
    }
    if (onlyPlayer !== null && named !== onlyPlayer) {
      logWarn("UPLOAD", "rejected: another player through a player link", { status: 403, player: onlyPlayer, named: named ?? undefined });
      return c.text(ONLY_OWN_PLAYER, 403);
    }
    if (onlyPlayer === null && named !== null && (await owner.links.linkedPlayer(named))?.linkOnlySince != null) {
      logWarn("UPLOAD", "rejected: no link for a player who uploads through theirs", { status: 403, player: named, peer: peerOf(c, config.trustProxy) });
      return c.text(linkOnly(named), 403);
    }
    const chunkLabel = `${header.chunkIndex + 1}/${header.totalChunks}`;
    const tooLarge = () => {
      logWarn("UPLOAD", "chunk too large", { upload: header.uploadId, chunk: chunkLabel });
      return c.text(cappedMessage("chunk", MAX_CHUNK_BYTES), 413);
    };
    if (declaredTooLarge(c.req.header("content-length"), MAX_CHUNK_BYTES)) return tooLarge();
    const read = await readCapped(c.req.raw.body, MAX_CHUNK_BYTES, "chunk", { gate: c.get("bodyGate"), pace: config.bodyPace });
    if (!read.ok) {
      const { status, reason, retryAfterSeconds } = read.refusal;
      if (status === 413) return tooLarge();
      logWarn("UPLOAD", "body refused", { upload: header.uploadId, chunk: chunkLabel, status, reason });
      if (retryAfterSeconds !== undefined) c.header("Retry-After", String(retryAfterSeconds));
      return c.text(reason, status);
    }
    const body = read.bytes;
    if (body.byteLength === 0) return c.text("body is empty", 400);

    const chunk = { header, body, playerId: named, origin: saveOrigin(header.originalUrl), peer: peerOf(c, config.trustProxy), now: Date.now() };
    const outcome = await uploads.acceptChunk(chunk, limits);
    const ms = Math.round(performance.now() - started);
    const base = { upload: header.uploadId, chunk: chunkLabel, bytes: body.byteLength, player: chunk.playerId ?? undefined };
    switch (outcome.kind) {
      case "total_mismatch":
        logWarn("UPLOAD", "total mismatch", { ...base, expected: outcome.expected });
        return c.text(`X-Total-Chunks must stay ${outcome.expected} for this upload`, 400);
      case "too_large":
        logWarn("UPLOAD", "upload too large", { ...base, total: outcome.uploadBytes });
        return c.text(`upload exceeds ${MAX_UPLOAD_BYTES} bytes in total`, 413);
      case "over_cap":
        logWarn("UPLOAD", "open-upload cap", { ...base, reason: outcome.reason, retryAfter: outcome.retryAfterSeconds });
        c.header("Retry-After", String(outcome.retryAfterSeconds));
        return c.text(outcome.reason, 429);
      case "resend":
        metrics.upload("resend");
        logInfo("UPLOAD", "resend of a completed upload", { ...base, task: outcome.taskId, save: outcome.saveId });
        return c.text("OK");
      case "partial":
        metrics.upload("chunk");
        logInfo("UPLOAD", "chunk stored", { ...base, task: outcome.taskId, received: `${outcome.received}/${outcome.total}`, ms });
        return c.text("OK");
      case "completed":
        metrics.upload(outcome.created ? "save" : "duplicate");
        logInfo("UPLOAD", outcome.created ? "save stored" : outcome.adopted ? "duplicate save names its player" : "duplicate save", {
          ...base,
          player: outcome.playerId,
          save: outcome.saveId,
          task: outcome.taskId,
          saveBytes: outcome.saveBytes,
          ms,
        });
        if (outcome.created || outcome.adopted) wakePipeline();
        return c.text("OK");
    }
  }
}
