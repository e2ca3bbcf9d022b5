/**
 * What a test reads from a running service's store, by name, on SQLite and on a hub's PostgreSQL alike: the one place
 * a schema change reaches the tests that otherwise go through HTTP, the CLI and the archive. Saves, pushes and
 * players come from the owner views (drizzle/0019_owner_views.sql, drizzle/pg/0009_owner_views.sql); what no view
 * shows (an upload's save, a job's counters, an archive's token and file list, the setup token) from its table here.
 */
import type postgres from "postgres";
import { eventually } from "../../scripts/lib/eventually.ts";
import type { Db } from "../../src/db/sqlite/open.ts";
import { query as sqliteQuery } from "./db.ts";
import { jsonValue, type Deployment } from "./deployments.ts";
import type { RunningServer } from "./in-process.ts";

type Param = string | number | null;
type Row = Record<string, unknown>;
type Rows = (sql: string, ...params: Param[]) => Promise<Row[]>;

/** A save as view_saves shows it: `state` is a word (waiting, retrying, running, failed, done, waiting for a key). */
export interface SaveView {
  save_id: number;
  player_id: string;
  region: string | null;
  kind: string;
  state: string;
  stage: string | null;
  failure: string | null;
  archive_folder: string | null;
}

/** A save's stored row. */
export interface StoredSave {
  id: number;
  player_id: string;
  /** Of the encrypted bytes, hex. */
  sha256: string;
  source: string;
  size: number;
  received_at: number;
  data_type: string;
  partial: boolean;
  repeat_of: number | null;
  /** The encrypted body is kept (retention drops it). */
  has_body: boolean;
}

/** A job's row: its states are the queue's own (pending, pending_retry, running, waiting_for_key, failed, done). */
export interface JobRow {
  id: number;
  save_id: number | null;
  report_id: number | null;
  stage: string;
  state: string;
  attempts: number;
  last_error: string | null;
  implausible: boolean;
  rerun: boolean;
  crashes: number;
  process_deaths: number;
}

/** A push as view_pushes shows it: `state` is waiting, retrying, sent or failed; `route` the target's name. */
export interface PushView {
  push_id: number;
  save_id: number;
  channel: string;
  route: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

export interface ArchiveRow {
  save_id: number;
  player_id: string;
  rel_path: string;
  token: string;
  files: string[];
  created_at: number;
}

export interface ReportRow {
  id: number;
  outcome: string | null;
  save_id: number | null;
}

const REPORT = "SELECT id, outcome, save_id FROM reports";
const reportOf = (row: Row): ReportRow => ({ id: Number(row.id), outcome: row.outcome as string | null, save_id: n(row.save_id) });
const n = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const flag = (value: unknown) => value === true || Number(value) === 1;

const SAVE = "SELECT id, player_id, sha256, source, size, received_at, data_type, partial, repeat_of, encrypted IS NOT NULL AS has_body FROM saves";
const saveOf = (row: Row): StoredSave => ({
  ...(row as unknown as StoredSave),
  id: Number(row.id),
  size: Number(row.size),
  received_at: Number(row.received_at),
  partial: flag(row.partial),
  repeat_of: n(row.repeat_of),
  has_body: flag(row.has_body),
});
const JOB = "SELECT id, save_id, report_id, stage, state, attempts, last_error, implausible, rerun, crashes, process_deaths FROM jobs";
const jobOf = (row: Row): JobRow => ({
  ...(row as unknown as JobRow),
  id: Number(row.id),
  save_id: n(row.save_id),
  report_id: n(row.report_id),
  attempts: Number(row.attempts),
  implausible: flag(row.implausible),
  rerun: flag(row.rerun),
  crashes: Number(row.crashes),
  process_deaths: Number(row.process_deaths),
});
const PUSH = "SELECT push_id, save_id, channel, route, state, attempts, last_error FROM view_pushes";
const pushOf = (row: Row): PushView => ({ ...(row as unknown as PushView), push_id: Number(row.push_id), save_id: Number(row.save_id), attempts: Number(row.attempts) });
const ARCHIVE = "SELECT save_id, player_id, rel_path, token, files, created_at FROM archives";
const archiveOf = (row: Row): ArchiveRow => ({
  ...(row as unknown as ArchiveRow),
  save_id: Number(row.save_id),
  files: jsonValue<string[]>(row.files),
  created_at: Number(row.created_at),
});

function named(rows: Rows, onPostgres: boolean) {
  const first = async (sql: string, ...params: Param[]) => (await rows(sql, ...params))[0];
  const count = async (sql: string, ...params: Param[]) => Number((await first(sql, ...params))!.n);
  return {
    /** The save an upload completed (its latest task's), or undefined while none did. */
    saveOfUpload: async (uploadId: string) => n((await first("SELECT save_id FROM upload_tasks WHERE upload_id = ? ORDER BY id DESC", uploadId))?.save_id) ?? undefined,
    /** An upload's tasks, oldest first: the save each completed (null while open), whether it completed, and the chunks it still holds (their SHA-256, hex). */
    uploadTasks: async (uploadId: string) => {
      const [tasks, chunks] = await Promise.all([
        rows("SELECT id, save_id, completed_at FROM upload_tasks WHERE upload_id = ? ORDER BY id", uploadId),
        rows("SELECT c.task_id, c.sha256 FROM upload_task_chunks c JOIN upload_tasks t ON t.id = c.task_id WHERE t.upload_id = ? ORDER BY c.task_id, c.chunk_index", uploadId),
      ]);
      return tasks.map((task) => ({
        saveId: n(task.save_id),
        completed: task.completed_at !== null,
        chunks: chunks.filter((chunk) => Number(chunk.task_id) === Number(task.id)).map((chunk) => String(chunk.sha256)),
      }));
    },
    save: async (saveId: number) =>
      (await first("SELECT save_id, player_id, region, kind, state, stage, failure, archive_folder FROM view_saves WHERE save_id = ?", saveId)) as SaveView | undefined,
    /** Every save, oldest first. */
    saves: async () =>
      (await rows("SELECT save_id, player_id, region, kind, state, stage, failure, archive_folder FROM view_saves ORDER BY save_id")).map(
        (row) => ({ ...row, save_id: Number(row.save_id) }) as SaveView,
      ),
    saveCount: () => count("SELECT count(*) AS n FROM view_saves"),
    /** The save stored from these bytes (their SHA-256, hex), or undefined. */
    saveBySha: async (sha256: string) => {
      const row = await first(`${SAVE} WHERE sha256 = ?`, sha256);
      return row && saveOf(row);
    },
    saveRow: async (saveId: number) => {
      const row = await first(`${SAVE} WHERE id = ?`, saveId);
      return row && saveOf(row);
    },
    /** How the store holds a save's player id: "text" on both stores (19 digits never become a number). */
    playerIdType: async (saveId: number) =>
      String((await first(`SELECT ${onPostgres ? "pg_typeof(player_id)::text" : "typeof(player_id)"} AS t FROM saves WHERE id = ?`, saveId))!.t),
    /** Every stored save, oldest first, with its job's state and error (null without a job). */
    savesWithJobs: async () => {
      const [saves, jobs] = await Promise.all([rows(`${SAVE} ORDER BY id`), rows(`${JOB} WHERE save_id IS NOT NULL`)]);
      const jobOfSave = new Map(jobs.map((row) => [Number(row.save_id), jobOf(row)]));
      return saves.map(saveOf).map((save) => ({ ...save, state: jobOfSave.get(save.id)?.state ?? null, last_error: jobOfSave.get(save.id)?.last_error ?? null }));
    },
    /** When the player's latest save was received (ms), or null. */
    lastReceivedAt: async (playerId: string) => n((await first("SELECT max(received_at) AS at FROM saves WHERE player_id = ?", playerId))?.at),
    /** The save's encrypted bytes as stored (null once retention dropped them). */
    body: async (saveId: number) => {
      const value = (await first("SELECT encrypted FROM saves WHERE id = ?", saveId))?.encrypted;
      return value === null || value === undefined ? null : new Uint8Array(value as Uint8Array);
    },
    /** What the generate stage stored for a save (null before it ran, or once retention dropped it). */
    outputs: async <T = unknown>(saveId: number) => {
      const value = (await first("SELECT outputs FROM saves WHERE id = ?", saveId))?.outputs;
      return value === null || value === undefined ? null : jsonValue<T>(value);
    },
    job: async (saveId: number) => {
      const row = await first(`${JOB} WHERE save_id = ?`, saveId);
      return row && jobOf(row);
    },
    jobOfReport: async (reportId: number) => {
      const row = await first(`${JOB} WHERE report_id = ?`, reportId);
      return row && jobOf(row);
    },
    /** A save's job's lease (ms): who holds it and until when, as a crash left it. */
    jobLease: async (saveId: number) => {
      const row = await first("SELECT state, lease_expires_at, updated_at FROM jobs WHERE save_id = ?", saveId);
      return row && { state: String(row.state), lease_expires_at: n(row.lease_expires_at), updated_at: Number(row.updated_at) };
    },
    /** Every job, done ones too, oldest first. */
    jobs: async () => (await rows(`${JOB} ORDER BY id`)).map(jobOf),
    /** A save's pushes (a bot's data webhook among them), by channel. */
    pushes: async (saveId: number) => (await rows(`${PUSH} WHERE save_id = ? ORDER BY channel, push_id`, saveId)).map(pushOf),
    allPushes: async () => (await rows(`${PUSH} ORDER BY push_id`)).map(pushOf),
    archive: async (saveId: number) => {
      const row = await first(`${ARCHIVE} WHERE save_id = ?`, saveId);
      return row && archiveOf(row);
    },
    archives: async () => (await rows(`${ARCHIVE} ORDER BY save_id`)).map(archiveOf),
    /** The setup token as stored: its sha256 and its sealed form (tests/helpers/link-tokens.ts opens it). */
    storedSetupToken: async () => String((await first("SELECT value FROM settings WHERE key = 'setup_token'"))!.value),
    /** A linked player's page token as stored (sealed), or undefined. */
    storedPlayerToken: async (playerId: string) => (await first("SELECT token FROM players WHERE player_id = ?", playerId))?.token as string | undefined,
    report: async (reportId: number) => {
      const row = await first(`${REPORT} WHERE id = ?`, reportId);
      return row && reportOf(row);
    },
    /** A report's candidate bodies, in order: whether each was kept undecodable (bad base64), and its entry. */
    candidates: async (reportId: number) =>
      (await rows("SELECT seq, entry_index, undecodable, body FROM report_candidates WHERE report_id = ? ORDER BY seq", reportId)).map((row) => ({
        seq: Number(row.seq),
        entryIndex: Number(row.entry_index),
        undecodable: flag(row.undecodable),
        body: new Uint8Array(row.body as Uint8Array),
      })),
    /** Every row of a table, every column (a new one too): what a search for a leaked secret reads. */
    everyColumnOf: (table: "deliveries" | "jobs") => rows(`SELECT * FROM ${table}`),
    /** Whether the schema has anything of this name (a table a migration dropped has nothing). */
    hasTable: async (name: string) =>
      (await count(onPostgres ? "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = ?" : "SELECT count(*) AS n FROM sqlite_master WHERE name = ?", name)) > 0,
    appliedMigrations: () => count(`SELECT count(*) AS n FROM ${onPostgres ? "drizzle." : ""}__drizzle_migrations`),
    /** Every report, oldest first. */
    reports: async () => (await rows(`${REPORT} ORDER BY id`)).map(reportOf),
    /** The owner sessions as stored: a hash of each session id, never the id. */
    ownerSessionHashes: async () => (await rows("SELECT id_hash FROM owner_sessions")).map((row) => String(row.id_hash)),
  };
}

export type StoreReads = ReturnType<typeof named>;

/** Reads from a server's store: its SQLite file, or its deployment's database (hub mode). */
export function reads(server: RunningServer, deployment?: Deployment): StoreReads {
  return deployment
    ? named((sql, ...params) => deployment.query<Row>(server, sql, ...params), deployment.hub)
    : named(async (sql, ...params) => sqliteQuery<Row>(server, sql, ...(params as (string | number)[])), false);
}

/** Reads from a SQLite store a test opened itself (a pipeline harness, an owner app). */
export const dbReads = (db: Db): StoreReads => named(async (sql, ...params) => db.$client.query(sql).all(...params) as Row[], false);

/** Reads from a hub's PostgreSQL through a connection the test holds. */
export function pgReads(sql: postgres.Sql): StoreReads {
  return named(async (text, ...params) => {
    let i = 0;
    return [...(await sql.unsafe(text.replace(/\?/g, () => `$${++i}`), params))] as Row[];
  }, true);
}

/** The save an upload completed, once it did (the caller knows it has). */
export const saveIdOf = async (server: RunningServer, uploadId: string, deployment?: Deployment) => (await reads(server, deployment).saveOfUpload(uploadId))!;

/** Waits until a save's job is in this state, and returns its row then. */
export const jobReaches = (server: RunningServer, saveId: number, state: string, timeoutMs = 20_000, what = `job of save ${saveId} ${state}`, deployment?: Deployment) =>
  eventually(async () => {
    const job = await reads(server, deployment).job(saveId);
    return job?.state === state && job;
  }, timeoutMs, what);
