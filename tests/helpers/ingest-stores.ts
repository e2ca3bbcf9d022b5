/**
 * The two ingest stores side by side for the contract suite (tests/unit/ingest-store.contract.test.ts): each
 * with a second store on connections of its own (a second process of a hub), and a raw count of rows.
 */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type PreparedFixtureKind } from "./store-handles.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { sqliteReportStore, sqliteUploadStore } from "../../src/db/uploads/sqlite-store.ts";
import { type Db } from "../../src/db/open.ts";
import { pgReportStore, pgUploadStore } from "../../src/db/uploads/pg-store.ts";
import { type PgDb } from "../../src/db/pg/open.ts";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import type { ReportStore, UploadStore } from "../../src/store/ports/ingest.ts";

/** The upload rules' vocabulary, for the suites that reach the stores only through this helper. */
export { RESEND_LOOKBACK } from "../../src/db/uploads/statements.ts";
export { COMPLETED_UPLOAD_RETENTION_MS } from "../../src/db/uploads/rules.ts";
export type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../src/store/ports/ingest.ts";

export interface IngestStores {
  uploads: UploadStore;
  reports: ReportStore;
}

export interface IngestFixture extends IngestStores {
  /** The job store on the same database: a save's job claimed and recorded as the pipeline does. */
  jobs: JobStore;
  /** Stores on connections of their own, as a second process has. */
  another: () => Promise<IngestStores>;
  /** The first column of the first row of `query` (the same SQL on both dialects), as a number. */
  scalar: (query: string) => Promise<number>;
  /** Runs a statement (the same SQL on both dialects). */
  exec: (statement: string) => Promise<void>;
  /** The first column of every row of `query`, as text. */
  column: (query: string) => Promise<string[]>;
  /** Takes the housekeeping lock as another process's sweep would, until the returned release (PostgreSQL only). */
  holdHousekeeping?: () => Promise<() => Promise<void>>;
  /** PostgreSQL: another process's chunk of `uploadId` in flight (its upload-id lock held) until the release. */
  holdUploadId?: (uploadId: string) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
}

export type IngestStoreKind = PreparedFixtureKind<IngestFixture>;

const sqliteStores = (db: Db): IngestStores => {
  const committer = new GroupCommitter(db);
  return { uploads: sqliteUploadStore(db, committer), reports: sqliteReportStore(committer) };
};

export const sqliteIngestStores: IngestStoreKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const { db, another: openAnother, close } = sqliteHandles("ingest-store-");
    const firstColumn = (query: string) => (db.$client.query(query).values() as unknown[][]).map((row) => row[0]);
    return {
      ...sqliteStores(db),
      jobs: sqliteJobStore(db),
      another: async () => sqliteStores(await openAnother()),
      scalar: async (query) => Number(firstColumn(query)[0]),
      exec: async (statement) => void db.$client.run(statement),
      column: async (query) => firstColumn(query).map(String),
      close,
    };
  },
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();
const pgStores = (db: PgDb): IngestStores => ({ uploads: pgUploadStore(db), reports: pgReportStore(db) });

export const postgresIngestStores: IngestStoreKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const { db, another: openAnother, open: openOther, close } = await pgHandles(await pgDatabase(), "upload_task_chunks, upload_tasks, report_candidates, reports, jobs, saves, msr_subscriptions RESTART IDENTITY CASCADE", 8);
    const firstColumn = async (query: string) => (await db.$client.unsafe(query).values()).map((row) => row[0]);
    return {
      ...pgStores(db),
      jobs: pgJobStore(db),
      another: async () => pgStores(await openAnother()),
      scalar: async (query) => Number((await firstColumn(query))[0]),
      exec: async (statement) => void (await db.$client.unsafe(statement)),
      column: async (query) => (await firstColumn(query)).map(String),
      holdHousekeeping: async () => {
        const other = await openOther(2);
        const connection = await other.$client.reserve();
        await connection`SELECT pg_advisory_lock(${0x6d79_7367})`;
        return async () => {
          await connection`SELECT pg_advisory_unlock(${0x6d79_7367})`;
          connection.release();
        };
      },
      holdUploadId: async (uploadId) => {
        const other = await openOther(2);
        const connection = await other.$client.reserve();
        await connection`SELECT pg_advisory_lock(${0x6d79_7375}::int, hashtext(${uploadId}))`;
        return async () => {
          await connection`SELECT pg_advisory_unlock(${0x6d79_7375}::int, hashtext(${uploadId}))`;
          connection.release();
        };
      },
      close,
    };
  },
};
