/** The ingest store contract suites' chunks and reads (tests/contract/ingest-store.*.contract.test.ts), on the store under test. */
import { randomBytes } from "node:crypto";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import { NO_ORIGIN, type SaveOrigin } from "../../src/store/model/saves.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../src/store/ports/ingest.ts";
import type { StoreUnderTest } from "./contract-stores.ts";
import { holdAdvisoryLock } from "./contract-sql.ts";

export const T0 = 1_700_000_000_000;
export const TTL = 60_000;
export const LEASE = 60_000;
export const PLAYER = "7485938820123456789";
export const OTHER_PLAYER = "1234567890123456789";
export const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: TTL, maxOpen: 4, maxOpenBytes: 1 << 20, peerShare: 0.5, mayBeSave: () => true };

interface ChunkOptions {
  player?: string | null;
  peer?: string;
  now?: number;
  origin?: SaveOrigin;
}

export function chunk(uploadId: string, chunkIndex: number, totalChunks: number, body: Uint8Array, options: ChunkOptions = {}): IncomingChunk {
  const player = options.player === undefined ? PLAYER : options.player;
  const originalUrl = player === null ? null : `https://mysekai.example/api/user/${player}/mysekai`;
  return { header: { uploadId, chunkIndex, totalChunks, originalUrl }, body, playerId: player, origin: options.origin ?? NO_ORIGIN, peer: options.peer ?? "203.0.113.7", now: options.now ?? T0 };
}

export const blocks = (n: number) => new Uint8Array(randomBytes(16 * n));
export const kinds = (outcomes: ChunkOutcome[]) => outcomes.map((outcome) => outcome.kind).sort();

export function ingestStoreFixture(s: StoreUnderTest) {
  const accept = (c: IncomingChunk, limits: UploadLimits = LIMITS): Promise<ChunkOutcome> => s.stores.uploads.acceptChunk(c, limits);
  /** Another process of the hub holding the advisory lock `key` names (its SQL), until the release. */
  const holdLock = (key: string) => holdAdvisoryLock(s.config.database.kind === "postgres" ? s.config.database.url : "", key);

  const saves = async () => (await s.stored.saves()).length;
  const jobs = async () => (await s.jobRows.all()).length;
  const openTasks = () => s.stored.openUploadTasks();
  const jobRows = async () => (await s.jobRows.all()).map((job) => `${job.stage}:${job.state}:${job.attempts}:${job.notify ? "push" : "quiet"}:${job.lastError ?? "-"}`);
  const players = async () => (await s.stored.saves()).map((save) => save.player);
  const rerun = (job: { rerun: boolean }) => (job.rerun ? "rerun" : "-");
  return { accept, holdLock, saves, jobs, openTasks, jobRows, players, rerun };
}
