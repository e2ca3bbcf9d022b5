/** The upload rules' contract suites' chunks and reads (tests/contract/upload-rules.*.contract.test.ts), on the store under test. */
import { randomBytes } from "node:crypto";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { NO_ORIGIN } from "../../src/store/model/saves.ts";
import type { ChunkOutcome, UploadLimits } from "../../src/store/ports/ingest.ts";
import type { StoreUnderTest } from "./contract-stores.ts";

export const P1 = "7488393821744390161";
export const P2 = "1234567890123456789";
export const T0 = 1_800_000_000_000;
export const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 3, maxOpenBytes: 100_000, peerShare: 1, mayBeSave: () => true };

interface Send {
  id: string;
  index: number;
  total: number;
  body: Uint8Array;
  /** A real player id, "unknown" (a URL without digits) or null (no X-Original-Url). */
  player?: string | null;
  now?: number;
  limits?: UploadLimits;
  peer?: string;
}

export const parts = (n: number, size = 1000) => Array.from({ length: n }, () => new Uint8Array(randomBytes(size)));

export function uploadRulesFixture(s: StoreUnderTest) {
  const send = ({ id, index, total, body, player = null, now = T0, limits = LIMITS, peer = "192.0.2.1" }: Send): Promise<ChunkOutcome> =>
    s.stores.uploads.acceptChunk({ header: { uploadId: id, chunkIndex: index, totalChunks: total, originalUrl: null }, body, playerId: player, origin: NO_ORIGIN, peer, now }, limits);
  /** Sends every part of a save as chunks 0..n-1, one after the other, and returns the last outcome. */
  const sendAll = async (id: string, chunks: Uint8Array[], player: string | null = null, now = T0): Promise<ChunkOutcome> => {
    let last: ChunkOutcome | undefined;
    for (const [index, body] of chunks.entries()) last = await send({ id, index, total: chunks.length, body, player, now });
    return last!;
  };
  const savesRows = () => s.stored.saves();
  const saveOf = async (chunks: Uint8Array[]) => (await savesRows()).find((row) => row.sha256 === sha256Hex(Buffer.concat(chunks)));
  const openTasks = () => s.stored.openUploadTasks();
  const chunkRows = () => s.stored.heldChunks();
  return { send, sendAll, savesRows, saveOf, openTasks, chunkRows };
}
