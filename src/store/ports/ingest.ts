/**
 * Uploads and reports as the routes and the housekeeping use them, async so that a hub's PostgreSQL can stand
 * behind them: SQLite's (src/db/uploads/sqlite-store.ts) commits through the group committer, PostgreSQL's
 * (src/db/uploads/pg-store.ts) in a transaction of its own. Both pass tests/contract/ingest-store.*.contract.test.ts.
 */
import type { ChunkHeader } from "../../ingest/chunk-headers.ts";
import type { HarExtraction } from "../../ingest/har.ts";
import type { SaveOrigin } from "../model/saves.ts";

export interface UploadStore {
  /** Stores one chunk, and the save and its job when it completes one: settled once durable, so a 200 keeps it. */
  acceptChunk(chunk: IncomingChunk, limits: UploadLimits): Promise<ChunkOutcome>;
  /** Deletes expired tasks (open past `ttlMs`, completed past a day); null when another process is doing it now. */
  expire(now: number, ttlMs: number): Promise<number | null>;
}

export interface ReportStore {
  /** Stores the report, its candidate bodies and its evaluate job at once; its id, once durable. */
  store(extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): Promise<number>;
}

export interface IncomingChunk {
  header: ChunkHeader;
  body: Uint8Array;
  /** Player id parsed from this chunk's X-Original-Url (`unknown` when it names none), or null without the header. */
  playerId: string | null;
  /** What this chunk's request says of the save it may complete (src/ingest/save-origin.ts): decided by the route, stored as given. */
  origin: SaveOrigin;
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

export interface OverCap {
  kind: "over_cap";
  reason: string;
  retryAfterSeconds: number;
}

export type ChunkOutcome =
  | { kind: "partial"; taskId: number; received: number; total: number; uploadBytes: number }
  | { kind: "completed"; taskId: number; saveId: number; created: boolean; adopted: boolean; playerId: string; saveBytes: number }
  | { kind: "resend"; taskId: number; saveId: number | null }
  | { kind: "total_mismatch"; expected: number }
  | { kind: "too_large"; uploadBytes: number }
  | OverCap;
