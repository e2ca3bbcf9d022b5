/**
 * The two retention stores side by side for the contract suite (tests/unit/retention-store.contract.test.ts):
 * each over a fresh database and a disk archive in a temp folder, with a way to add reports and saves in any
 * state and read what is left, the same for both dialects (drizzle's builders are the same on both; the
 * PostgreSQL tables stand in for SQLite's types).
 */
import type { FixtureKind } from "./store-handles.ts";
import { and, count, eq } from "drizzle-orm";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import type { ArchiveStore } from "../../src/archive/store.ts";
import { openDatabase, type Db } from "../../src/db/open.ts";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { pgRetentionStore } from "../../src/db/retention/pg.ts";
import * as pg from "../../src/db/pg/schema.ts";
import { sqliteRetentionStore } from "../../src/db/retention/sqlite.ts";
import * as sqlite from "../../src/db/schema.ts";
import type { RetentionStore } from "../../src/store/ports/retention.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { databaseForThisFile } from "./postgres.ts";
import type { JobState } from "../../src/store/model/jobs.ts";

export const PLAYER = "1234567890123456789";

/** What the archive holds of a save: save.bin with its bytes, other bytes, nothing, or no archive row at all. */
export type ArchiveKind = "intact" | "damaged" | "missing" | null;

export interface SaveSpec {
  at: number;
  jobState: JobState;
  archive?: ArchiveKind;
  deliveryStates?: ("pending" | "sent" | "skipped" | "failed")[];
  implausible?: boolean;
}

export interface SaveView {
  exists: boolean;
  sha256: string | null;
  hasBody: boolean;
  hasOutputs: boolean;
  hasJob: boolean;
  deliveries: number;
  /** The archive row's files list, null without a row. */
  files: string[] | null;
  /** save.json.gz still in the archive folder. */
  jsonInArchive: boolean;
}

export interface RetentionFixture {
  store: RetentionStore;
  /** Another store on connections of its own, as a second process has, over `archive` (the fixture's by default). */
  another: (archive?: ArchiveStore) => Promise<RetentionStore>;
  archive: ArchiveStore;
  addReport: (receivedAt: number, processedAt: number | null, jobState: JobState | null, candidates: number) => Promise<number>;
  /** A report's row and its candidates. */
  report: (id: number) => Promise<{ exists: boolean; candidates: number }>;
  addSave: (spec: SaveSpec) => Promise<number>;
  /** Many done save jobs at `at` in one insert (saves without archives): batch tests. */
  addDoneSaves: (n: number, at: number) => Promise<void>;
  /** The save's job back to work (as an adoption or a reprocess sends it), written from the fixture's connection. */
  requeue: (saveId: number) => Promise<void>;
  save: (id: number) => Promise<SaveView>;
  close: () => Promise<void>;
}

export type RetentionStoreKind = FixtureKind<RetentionFixture>;

type Tables = typeof sqlite;

/** The fixture over either database: `db` and `t` are one dialect's, typed as SQLite's. */
function fixtureOver(db: Db, t: Tables, archiveRoot: string, store: RetentionStore, another: RetentionFixture["another"], close: () => Promise<void>): RetentionFixture {
  const archive = diskArchiveStore(archiveRoot);
  const newSave = (at: number, encrypted: Uint8Array) => ({ sha256: sha256Hex(encrypted), playerId: PLAYER, source: "upload" as const, encrypted, size: encrypted.byteLength, receivedAt: at, outputs: {} as never });
  return {
    store,
    another,
    archive,
    addReport: async (receivedAt, processedAt, jobState, candidates) => {
      const [{ id }] = (await db.insert(t.reports).values({ receivedAt, processedAt, shape: "har", entryCount: 1, candidateCount: candidates, emptyBodies: 0, meta: {} }).returning({ id: t.reports.id })) as [{ id: number }];
      for (let seq = 0; seq < candidates; seq++) await db.insert(t.reportCandidates).values({ reportId: id, seq, entryIndex: 0, part: "response", body: randomBytes(2_000) });
      if (jobState) await db.insert(t.jobs).values({ reportId: id, stage: "evaluate", state: jobState, runAt: receivedAt, createdAt: receivedAt, updatedAt: processedAt ?? receivedAt });
      return id;
    },
    report: async (id) => {
      const [row] = await db.select({ id: t.reports.id }).from(t.reports).where(eq(t.reports.id, id));
      const [candidates] = await db.select({ n: count() }).from(t.reportCandidates).where(eq(t.reportCandidates.reportId, id));
      return { exists: row !== undefined, candidates: Number(candidates!.n) };
    },
    addSave: async ({ at, jobState, archive: kind = null, deliveryStates = [], implausible = false }) => {
      const encrypted = randomBytes(4_000);
      const [{ id }] = (await db.insert(t.saves).values(newSave(at, encrypted)).returning({ id: t.saves.id })) as [{ id: number }];
      const stage = jobState === "done" ? "done" : "notify";
      await db.insert(t.jobs).values({ saveId: id, stage, state: jobState, implausible, runAt: at, createdAt: at, updatedAt: at });
      if (kind) {
        const relPath = `by-id/${PLAYER}/save_${id}`;
        await db.insert(t.archives).values({ saveId: id, playerId: PLAYER, relPath, token: `token${id}`, files: ["save.bin", "save.json.gz", "site_5.png"], createdAt: at });
        mkdirSync(join(archiveRoot, relPath), { recursive: true });
        if (kind !== "missing") writeFileSync(join(archiveRoot, relPath, "save.bin"), kind === "intact" ? encrypted : randomBytes(4_000));
        writeFileSync(join(archiveRoot, relPath, "save.json.gz"), randomBytes(100));
      }
      for (const [n, state] of deliveryStates.entries()) {
        await db.insert(t.deliveries).values({ saveId: id, channel: "webhook", target: `t${n}`, state, nextAttemptAt: at, createdAt: at });
      }
      return id;
    },
    addDoneSaves: async (n, at) => {
      const ids = (await db.insert(t.saves).values(Array.from({ length: n }, () => newSave(at, randomBytes(16)))).returning({ id: t.saves.id })) as { id: number }[];
      await db.insert(t.jobs).values(ids.map(({ id }) => ({ saveId: id, stage: "done" as const, state: "done" as const, runAt: at, createdAt: at, updatedAt: at })));
    },
    requeue: async (saveId) => {
      // The sweep deletes an old done job first: a requeue then makes the save a new one, as requeueForRedraw does.
      await db.delete(t.jobs).where(eq(t.jobs.saveId, saveId));
      await db.insert(t.jobs).values({ saveId, stage: "generate", state: "pending", runAt: Date.now(), createdAt: Date.now(), updatedAt: Date.now() });
    },
    save: async (id) => {
      const [save] = await db.select({ sha256: t.saves.sha256, encrypted: t.saves.encrypted, outputs: t.saves.outputs }).from(t.saves).where(eq(t.saves.id, id));
      const [job] = await db.select({ n: count() }).from(t.jobs).where(eq(t.jobs.saveId, id));
      const [deliveries] = await db.select({ n: count() }).from(t.deliveries).where(eq(t.deliveries.saveId, id));
      const [archiveRow] = await db.select({ files: t.archives.files, relPath: t.archives.relPath }).from(t.archives).where(and(eq(t.archives.saveId, id)));
      const json = archiveRow ? await archive.read(archiveRow.relPath, "save.json.gz") : null;
      return {
        exists: save !== undefined,
        sha256: save?.sha256 ?? null,
        hasBody: save?.encrypted != null,
        hasOutputs: save?.outputs != null,
        hasJob: Number(job!.n) === 1,
        deliveries: Number(deliveries!.n),
        files: archiveRow?.files ?? null,
        jsonInArchive: json !== null,
      };
    },
    close,
  };
}

export const sqliteRetentionStores: RetentionStoreKind = {
  name: "sqlite",
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "retention-store-"));
    const path = join(dir, "ingest.sqlite");
    const archiveRoot = join(dir, "archive");
    const db = openDatabase(path);
    const others: Db[] = [];
    return fixtureOver(
      db,
      sqlite,
      archiveRoot,
      sqliteRetentionStore(db, diskArchiveStore(archiveRoot)),
      async (archive = diskArchiveStore(archiveRoot)) => {
        const other = openDatabase(path);
        others.push(other);
        return sqliteRetentionStore(other, archive);
      },
      async () => {
        for (const handle of [db, ...others]) handle.$client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    );
  },
};

/** One database for the file, emptied for each fixture. */
let pgUrl: Promise<string> | undefined;

export const postgresRetentionStores: RetentionStoreKind = {
  name: "postgres",
  open: async () => {
    pgUrl ??= databaseForThisFile("migrated");
    const url = await pgUrl;
    const dir = mkdtempSync(join(tmpdir(), "retention-store-"));
    const archiveRoot = join(dir, "archive");
    const db = await openPostgres(url, { maxConnections: 4 });
    await db.execute("TRUNCATE jobs, deliveries, archives, report_candidates, reports, saves RESTART IDENTITY CASCADE");
    const others: PgDb[] = [];
    return fixtureOver(
      db as unknown as Db,
      pg as unknown as Tables,
      archiveRoot,
      pgRetentionStore(db, diskArchiveStore(archiveRoot)),
      async (archive = diskArchiveStore(archiveRoot)) => {
        const other = await openPostgres(url, { maxConnections: 4 });
        others.push(other);
        return pgRetentionStore(other, archive);
      },
      async () => {
        await Promise.all([db, ...others].map((handle) => handle.$client.end()));
        rmSync(dir, { recursive: true, force: true });
      },
    );
  },
};
