/**
 * Drives the queue and runner in-process on a temp SQLite: fake stages, an explicit clock for claims, and a
 * drain that runs jobs one at a time until none is due. Jobs and saves are inserted with plain SQL so the
 * tests read like the rows they check.
 */
import { sqliteNudgeStore } from "../../src/db/owner/sqlite.ts";
import { sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import { spyOn } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { flushLog } from "../../src/log.ts";
import { loadConfig } from "../../src/config/index.ts";
import { sqliteDeliveryStore } from "../../src/db/deliveries/sqlite.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { sqliteStageStore } from "../../src/db/stage-writes/sqlite.ts";
import { openDatabase, type Db } from "../../src/db/sqlite/open.ts";
import { loadNotifySetup } from "../../src/notify/setup.ts";
import { claimJob } from "../../src/db/jobs/index.ts";
import { runJob, type Stages } from "../../src/pipeline/runner.ts";
import type { PipelineDeps, Stage, StageResult } from "../../src/pipeline/stage.ts";
import { WorkerPool } from "../../src/pipeline/worker-pool.ts";
import type { ClaimedJob, JobSubject, SaveSubject } from "../../src/store/model/jobs.ts";
import { sqliteNotifyReads } from "../../src/db/read-models/sqlite.ts";
import { unknownResourceLog } from "../../src/pipeline/unknown-resources.ts";

export const LEASE_MS = 60_000;
/** Two retries: attempt 1 waits ~1 s, attempt 2 ~2 s, attempt 3 is the last. */
export const BACKOFF_MS = [1_000, 2_000];
/** A secret the deps know: error text must never carry it. */
export const SECRET = "sekrit-webhook-token-0123456789";

export interface Harness {
  db: Db;
  deps: PipelineDeps;
  /** The deps' archive folder (a disk store). */
  archiveRoot: string;
  /** Log lines the runner wrote (console is silenced while the harness is open). */
  logs: string[];
  close: () => void;
}

export function openHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), "mysk-queue-"));
  const config = loadConfig({ DATA_DIR: dir, CONFIG_DIR: dir });
  config.pipeline = { ...config.pipeline, leaseMs: LEASE_MS, backoffMs: BACKOFF_MS };
  const db = openDatabase(join(dir, "ingest.sqlite"));
  const notify = loadNotifySetup(config.notify, config.configDir);
  // No worker threads: the fake stages never ask the pool for work.
  const workers = new WorkerPool(0, 1_000);
  const archiveRoot = join(dir, "archive");
  const deps: PipelineDeps = { config, workers, routing: notify.routing, secrets: [SECRET], archive: diskArchiveStore(archiveRoot), deliveries: sqliteDeliveryStore(db), jobs: sqliteJobStore(db), stageStore: sqliteStageStore(db), notifyReads: sqliteNotifyReads(db), watch: sqliteWatchStore(db), links: { linkedPlayer: async () => null }, nudge: { nudges: sqliteNudgeStore(db), links: { linkedPlayer: async () => null }, routing: notify.routing, config, secrets: [SECRET] }, logUnknownResources: unknownResourceLog() };
  const logs: string[] = [];
  const capture = (...parts: unknown[]) => void logs.push(parts.join(" "));
  const spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "warn").mockImplementation(capture)];
  return {
    db,
    deps,
    archiveRoot,
    // Lines are queued until the end of the event loop's turn (src/log.ts): whatever is queued is in.
    get logs() {
      flushLog();
      return logs;
    },
    close: () => {
      flushLog();
      for (const spy of spies) spy.mockRestore();
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stage table for a test: stages it does not name throw, so an unexpected run shows up as a retry. */
export function fakeStages(overrides: Partial<Stages>): Stages {
  const unexpected: Stage<JobSubject> = async (_deps, job) => {
    throw new Error(`unexpected stage ${job.stage}`);
  };
  return { evaluate: unexpected, generate: unexpected, archive: unexpected, notify: unexpected, ...overrides };
}

/** A stage that counts its runs and returns what `result` gives for each (or throws what it throws). */
export function countingStage(result: (run: number) => StageResult): Stage & { runs: number } {
  const stage = Object.assign(
    async () => {
      stage.runs += 1;
      return result(stage.runs);
    },
    { runs: 0 },
  );
  return stage;
}

/** Claims due jobs at `now` (oldest first, as the poller does) and runs each to its recorded outcome; returns how many ran. */
export async function runUntilEmpty(h: Harness, stages: Stages, options: { now: number; max?: number }): Promise<number> {
  const max = options.max ?? 50;
  for (let ran = 0; ran < max; ran += 1) {
    const job = claimJob(h.db, options.now, LEASE_MS);
    if (!job) return ran;
    await runJob(h.deps, job, stages);
  }
  throw new Error(`queue not empty after ${max} runs`);
}

/** The claimed job of a save, typed as the save stages take it; throws for a report job. */
export function saveJob(job: ClaimedJob | null): ClaimedJob<SaveSubject> {
  const subject = job?.subject;
  if (!job || subject?.kind !== "save") throw new Error(`expected a claimed save job, got ${JSON.stringify(job)}`);
  return { ...job, subject };
}

/** A gate a stage waits at: the test sees it `arrived`, acts while the stage hangs, then `release`s it. */
export function barrier(): { wait: () => Promise<void>; arrived: Promise<void>; release: () => void } {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    wait: () => {
      arrive();
      return released;
    },
    arrived,
    release,
  };
}

export function insertSave(db: Db, receivedAt: number, playerId = "1234567890123456789"): number {
  const row = db.$client
    .query("INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at) VALUES (?, ?, 'upload', ?, 3, ?) RETURNING id")
    .get(crypto.randomUUID(), playerId, new Uint8Array([1, 2, 3]), receivedAt) as { id: number };
  return row.id;
}

export interface JobFields {
  saveId?: number;
  /** A report job (no save) when given. */
  reportId?: number;
  stage?: string;
  state?: string;
  attempts?: number;
  runAt: number;
  leaseId?: string | null;
  leaseExpiresAt?: number | null;
  notify?: boolean;
}

/** Inserts a job (for a new save unless `saveId` or `reportId` is given); returns its id. */
export function insertJob(db: Db, fields: JobFields): number {
  const saveId = fields.reportId !== undefined ? null : (fields.saveId ?? insertSave(db, fields.runAt));
  const row = db.$client
    .query(
      `INSERT INTO jobs (save_id, report_id, stage, state, attempts, run_at, lease_id, lease_expires_at, notify, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
      saveId,
      fields.reportId ?? null,
      fields.stage ?? "generate",
      fields.state ?? "pending",
      fields.attempts ?? 0,
      fields.runAt,
      fields.leaseId ?? null,
      fields.leaseExpiresAt ?? null,
      fields.notify === false ? 0 : 1,
      fields.runAt,
      fields.runAt,
    ) as { id: number };
  return row.id;
}

export interface JobRow {
  id: number;
  save_id: number | null;
  stage: string;
  state: string;
  attempts: number;
  run_at: number;
  lease_id: string | null;
  lease_expires_at: number | null;
  notify: number;
  last_error: string | null;
}

export function jobRow(db: Db, id: number): JobRow {
  return db.$client.query("SELECT * FROM jobs WHERE id = ?").get(id) as JobRow;
}
