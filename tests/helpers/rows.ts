/**
 * The rows a contract test starts from, written through the stores' ports as the service writes them (no INSERT of
 * a test's own, so a schema change reaches no test that goes through the ports): a save accepted as an upload, a
 * report as POST /capture/report stores it, ….
 */
import { randomBytes } from "node:crypto";
import { REGION_HOSTS, type Region } from "../../src/capture/regions.ts";
import type { DataType } from "../../src/capture/data-types.ts";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import type { HarExtraction } from "../../src/ingest/har.ts";
import type { Stores } from "../../src/stores.ts";
import type { UploadLimits } from "../../src/store/ports/ingest.ts";

export const PLAYER = "1234567890123456789";

export interface SaveSpec {
  playerId?: string;
  at?: number;
  /** The encrypted bytes (16 random ones unless given). */
  bytes?: Uint8Array;
  /** The capture URL's game host names it (none: no region). */
  region?: Region;
  dataType?: DataType;
  /** The bytes cannot be a save under the configured keys: its job waits behind real saves. */
  implausible?: boolean;
}

export interface Rows {
  /** A save accepted as a one-chunk upload, with its generate job; its id. */
  save: (spec?: SaveSpec) => Promise<number>;
  /** A report with `bodies` as its candidates and its evaluate job, as POST /capture/report stores it; its id. */
  report: (bodies?: Uint8Array[], at?: number) => Promise<number>;
}

const limits = (implausible: boolean): UploadLimits => ({ maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 1_000, maxOpenBytes: 1 << 30, peerShare: 1, mayBeSave: () => !implausible });

/** The capture URL an upload of `spec` names. */
export function captureUrl(playerId: string, region?: Region, dataType: DataType = "mysekai"): string {
  const host = region ? REGION_HOSTS[region][0] : "mysekai.example";
  const path = dataType === "mysekai_birthday_party" ? `mysekai/birthday-party/1/delivery` : "mysekai";
  return `https://${host}/api/user/${playerId}/${path}`;
}

/** Candidate bodies as a HAR's extraction lists them, in order. */
export function extraction(bodies: Uint8Array[]): HarExtraction {
  const candidates = bodies.map((body, i) => ({ entryIndex: i, part: "response" as const, url: `https://x/${i}`, body, undecodable: false }));
  return { shape: "har", entryCount: bodies.length, candidates, emptyBodies: 0, otherBodies: 0, skippedEntries: 0, skippedBodies: 0, notes: [] };
}

export function rowsOver(stores: Stores): Rows {
  return {
    save: async ({ playerId = PLAYER, at = Date.now(), bytes = new Uint8Array(randomBytes(16)), region, dataType, implausible = false } = {}) => {
      const header = { uploadId: crypto.randomUUID(), chunkIndex: 0, totalChunks: 1, originalUrl: captureUrl(playerId, region, dataType) };
      const outcome = await stores.uploads.acceptChunk({ header, body: bytes, playerId, peer: "203.0.113.7", now: at }, limits(implausible));
      if (outcome.kind !== "completed") throw new Error(`the save was not accepted: ${outcome.kind}`);
      return outcome.saveId;
    },
    report: (bodies = [new Uint8Array([9])], at = Date.now()) => stores.reports.store(extraction(bodies), {}, at),
  };
}
