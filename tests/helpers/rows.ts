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
import { saveOrigin } from "../../src/ingest/save-origin.ts";
import type { Stores } from "../../src/stores.ts";
import type { UploadLimits } from "../../src/store/ports/ingest.ts";
import type { ArchiveRow, StageWrites } from "../../src/store/ports/stage-writes.ts";
import type { RefreshDigest } from "../../src/maps/refresh-digest.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { advanceChange, type ClaimedJob, type JobStage } from "../../src/store/model/jobs.ts";

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
  report: (bodies?: Uint8Array[], at?: number, meta?: Record<string, string>) => Promise<number>;
  /** The due job, claimed at `at` under an hour's lease; it must be the save's (`saveId`) when given. */
  claim: (at: number, saveId?: number) => Promise<ClaimedJob>;
  /** The save drawn and archived as generate records it (in by-id/<player>/<save id>), its job then at `stage`. */
  drawn: (saveId: number, spec?: DrawnSpec) => Promise<void>;
  /** The save's job claimed and failed for good with `reason`. */
  failed: (saveId: number, reason: string, at?: number) => Promise<void>;
}

export interface DrawnSpec {
  at?: number;
  /** The refresh digest kept with the archive (a full one without finds unless given); its `partial` is the save's. */
  digest?: RefreshDigest;
  /** Where its job goes next (done unless given). */
  stage?: JobStage;
  /** Its drops' fingerprint (the one push per refresh compares them); its own unless given. */
  drops?: string;
  /** When its job at `stage` is due (`at` unless given). */
  runAt?: number;
  /** What generate drew, and where it archived it (a model without sites, in by-id/<player>/<save id>, unless given). */
  outputs?: SaveOutputs;
  archive?: Partial<Pick<ArchiveRow, "relPath" | "files" | "token">>;
}

const HOUR = 3_600_000;
export const fullDigest = (partial = false): RefreshDigest => ({ partial, rare: [], newSongs: [], more: 0, sites: [] });

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

/** What a generate stage writes for `saveId` archived at `relPath`: its outputs as partial as `digest` says. */
export function drawnWrites(saveId: number, relPath: string, playerId = PLAYER, digest = fullDigest(), drops = `drops-of-${saveId}`): Extract<StageWrites, { kind: "drawn" }> {
  const outputs = { partial: digest.partial, sites: [] } as unknown as SaveOutputs;
  return { kind: "drawn", saveId, outputs, dropsFingerprint: drops, archive: { playerId, relPath, files: ["save.bin", "overview.png"], digest, token: crypto.randomUUID() } };
}

export function rowsOver(stores: Stores): Rows {
  return {
    save: async ({ playerId = PLAYER, at = Date.now(), bytes = new Uint8Array(randomBytes(16)), region, dataType, implausible = false } = {}) => {
      const originalUrl = captureUrl(playerId, region, dataType);
      const header = { uploadId: crypto.randomUUID(), chunkIndex: 0, totalChunks: 1, originalUrl };
      const outcome = await stores.uploads.acceptChunk({ header, body: bytes, playerId, origin: saveOrigin(originalUrl), peer: "203.0.113.7", now: at }, limits(implausible));
      if (outcome.kind !== "completed") throw new Error(`the save was not accepted: ${outcome.kind}`);
      return outcome.saveId;
    },
    report: (bodies = [new Uint8Array([9])], at = Date.now(), meta = {}) => stores.reports.store(extraction(bodies), meta, at),
    claim,
    drawn: async (saveId, { at = Date.now(), digest = fullDigest(), stage = "done", drops, runAt = at, outputs, archive = {} } = {}) => {
      const job = await claim(at, saveId);
      const playerId = (await stores.stageStore.playerOf(saveId)) ?? PLAYER;
      const writes = drawnWrites(saveId, archive.relPath ?? `by-id/${playerId}/${saveId}`, playerId, digest, drops);
      const drawn = { ...writes, outputs: outputs ?? writes.outputs, archive: { ...writes.archive, ...archive } };
      await stores.stageStore.record(job, drawn, advanceChange(stage, runAt), at, false);
    },
    failed: async (saveId, reason, at = Date.now()) => stores.jobs.transition(await claim(at, saveId), { state: "failed", lastError: reason }, at),
  };

  async function claim(at: number, saveId?: number): Promise<ClaimedJob> {
    const job = await stores.jobs.claim(at, HOUR, false);
    if (!job) throw new Error("no job is due");
    if (saveId !== undefined && !(job.subject.kind === "save" && job.subject.saveId === saveId)) throw new Error(`the due job is not save ${saveId}'s: ${JSON.stringify(job.subject)}`);
    return job;
  }
}
