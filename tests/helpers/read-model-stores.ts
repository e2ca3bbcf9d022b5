/**
 * The read models on both stores for their contract suite (tests/unit/read-models.contract.test.ts): the pages'
 * reads, the data API's and the notify stage's over one database, with rows inserted through each dialect's own
 * drizzle schema, so the same fixtures stand in both.
 */
import type { PreparedFixtureKind } from "./store-handles.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { openDatabase } from "../../src/db/open.ts";
import { sqliteOwnerStore } from "../../src/db/owner/sqlite.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import { pgOwnerStore } from "../../src/db/owner/pg.ts";
import { TEST_SEAL } from "./link-tokens.ts";
import { pgNotifyReads } from "../../src/db/read-models/pg-notify.ts";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";
import type { DataAccess } from "../../src/store/ports/owner.ts";
import { type PageReads } from "../../src/store/ports/pages.ts";
import type { NotifyReads } from "../../src/store/ports/notify.ts";
import { databaseForThisFile } from "./postgres.ts";
import { sqlitePageReads } from "../../src/db/read-models/sqlite.ts";
import { pgPageReads } from "../../src/db/read-models/pg.ts";
import type { DataReads } from "../../src/store/ports/data-api.ts";
import { sqliteDataReads } from "../../src/db/read-models/sqlite.ts";
import { pgDataReads } from "../../src/db/read-models/pg.ts";
import { sqliteNotifyReads } from "../../src/db/read-models/sqlite-notify.ts";

export const DEFAULT_REGION = "jp";

type Row<T extends { $inferInsert: unknown }> = T["$inferInsert"];

/** Inserts a row of each table, the values typed by SQLite's schema (PostgreSQL's holds the same columns). */
export interface Inserts {
  save(values: Row<typeof sqlite.saves>): Promise<number>;
  archive(values: Row<typeof sqlite.archives> & { saveId: number }): Promise<void>;
  job(values: Row<typeof sqlite.jobs>): Promise<number>;
  delivery(values: Row<typeof sqlite.deliveries>): Promise<number>;
  report(values: Row<typeof sqlite.reports>): Promise<number>;
}

export interface ReadModelFixture {
  pages: PageReads;
  data: DataReads;
  notify: NotifyReads;
  access: DataAccess;
  insert: Inserts;
  /** The disk archive the data reads fall back to (save.bin once the retention rule cleared a save). */
  archiveRoot: string;
  /** A statement of SQL both dialects read alike, run as it is (to change a row behind a store's back). */
  exec: (statement: string) => Promise<void>;
  close: () => Promise<void>;
}

export type ReadModelKind = PreparedFixtureKind<ReadModelFixture>;

export const sqliteReadModels: ReadModelKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "read-models-"));
    const db = openDatabase(join(dir, "ingest.sqlite"));
    const archiveRoot = join(dir, "archive");
    const id = { id: sqlite.saves.id };
    return {
      pages: sqlitePageReads(db),
      data: sqliteDataReads(db, diskArchiveStore(archiveRoot), DEFAULT_REGION),
      notify: sqliteNotifyReads(db),
      access: sqliteOwnerStore(db, TEST_SEAL).access,
      archiveRoot,
      exec: async (statement) => void db.$client.run(statement),
      insert: {
        save: async (values) => db.insert(sqlite.saves).values(values).returning(id).get().id,
        archive: async (values) => void db.insert(sqlite.archives).values(values).run(),
        job: async (values) => db.insert(sqlite.jobs).values(values).returning({ id: sqlite.jobs.id }).get().id,
        delivery: async (values) => db.insert(sqlite.deliveries).values(values).returning({ id: sqlite.deliveries.id }).get().id,
        report: async (values) => db.insert(sqlite.reports).values(values).returning({ id: sqlite.reports.id }).get().id,
      },
      close: async () => {
        db.$client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** One database for the file, emptied for each fixture. */
let pgUrl: Promise<string> | undefined;
const pgDatabase = () => (pgUrl ??= databaseForThisFile("migrated"));

export const postgresReadModels: ReadModelKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const db = await openPostgres(await pgDatabase(), { maxConnections: 4 });
    await db.$client.unsafe("TRUNCATE saves, archives, jobs, deliveries, reports, api_tokens, public_players, msr_subscriptions RESTART IDENTITY CASCADE");
    const dir = mkdtempSync(join(tmpdir(), "read-models-"));
    const archiveRoot = join(dir, "archive");
    return {
      pages: pgPageReads(db),
      data: pgDataReads(db, diskArchiveStore(archiveRoot), DEFAULT_REGION),
      notify: pgNotifyReads(db),
      access: pgOwnerStore(db, TEST_SEAL).access,
      archiveRoot,
      exec: async (statement) => void (await db.$client.unsafe(statement)),
      insert: {
        save: async (values) => (await db.insert(pg.saves).values(values).returning({ id: pg.saves.id }))[0]!.id,
        archive: async (values) => void (await db.insert(pg.archives).values(values)),
        job: async (values) => (await db.insert(pg.jobs).values(values).returning({ id: pg.jobs.id }))[0]!.id,
        delivery: async (values) => (await db.insert(pg.deliveries).values(values).returning({ id: pg.deliveries.id }))[0]!.id,
        report: async (values) => (await db.insert(pg.reports).values(values).returning({ id: pg.reports.id }))[0]!.id,
      },
      close: async () => {
        await db.$client.end();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
