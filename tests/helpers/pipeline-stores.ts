/**
 * The stores the pipeline runs on, both dialects side by side, for the suites that run its stages and runner on each
 * (tests/unit/notify-stage.contract.test.ts, runner.contract.test.ts): the pipeline's store ports of one database,
 * saves, reports and jobs added as a test needs them, and their rows read back.
 */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type PreparedFixtureKind } from "./store-handles.ts";
import { eq } from "drizzle-orm";
import { pgDeliveryStore } from "../../src/db/deliveries/pg.ts";
import type { Delivery } from "../../src/store/model/deliveries.ts";
import { sqliteDeliveryStore } from "../../src/db/deliveries/sqlite.ts";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { sqliteReportStore } from "../../src/db/uploads/sqlite-store.ts";
import { pgReportStore } from "../../src/db/uploads/pg-store.ts";
import type { HarExtraction } from "../../src/ingest/har.ts";
import { type Db } from "../../src/db/open.ts";
import { type PgDb } from "../../src/db/pg/open.ts";
import { pgNotifyReads } from "../../src/db/read-models/pg-notify.ts";
import * as pg from "../../src/db/pg/schema.ts";
import { pgStageStore } from "../../src/db/stage-writes/pg.ts";
import { pgNudgeStore, pgWatchStore } from "../../src/db/owner/pg.ts";
import * as sqlite from "../../src/db/schema.ts";
import { sqliteStageStore } from "../../src/db/stage-writes/sqlite.ts";
import { sqliteNudgeStore, sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import type { Region } from "../../src/capture/regions.ts";
import type { SaveOutputs } from "../../src/maps/index.ts";
import type { NudgeStore } from "../../src/store/ports/nudges.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { sqliteNotifyReads } from "../../src/db/read-models/sqlite-notify.ts";

export type { Delivery };
export type JobView = typeof sqlite.jobs.$inferSelect;

/** A job's fields as a test sets them; a job for a new save unless `saveId` or `reportId` is given (or `saveId: null`). */
export type JobFields = Partial<Omit<JobView, "id">> & { runAt: number };
export type PipelineStores = Pick<PipelineDeps, "deliveries" | "jobs" | "stageStore" | "notifyReads" | "watch"> & { nudges: NudgeStore };

/** A save as the generate and archive stages leave it. */
export interface ArchivedSave {
  playerId: string;
  outputs: SaveOutputs;
  dropsFingerprint: string;
  relPath: string;
  token: string;
  files: string[];
}

export interface PipelineFixture {
  stores: PipelineStores;
  /** Stores the save, its archive row and its job waiting at notify, due since 0; returns the save id. */
  archivedSave: (save: ArchivedSave) => Promise<number>;
  /** The save's job waits at notify again (a reprocess), with or without its push. */
  backToNotify: (saveId: number, notify: boolean) => Promise<void>;
  /** The save's stored outputs model replaced (null: none stored, as an older version left it). */
  setOutputs: (saveId: number, outputs: SaveOutputs | null) => Promise<void>;
  /** The save's deliveries removed behind the stores' back, so its next notify sends to every target again. */
  clearDeliveries: (saveId: number) => Promise<void>;
  /** The save's deliveries, oldest first. */
  deliveries: (saveId: number) => Promise<Delivery[]>;
  archiveOf: (saveId: number) => Promise<{ relPath: string } | undefined>;
  /** A save of `playerId` (from `region`'s host when given), without a job. */
  addSave: (at: number, playerId?: string, region?: Region) => Promise<number>;
  /** The stores on connections of their own, as another process of a hub (or another handle on the file) has. */
  another: () => Promise<PipelineStores>;
  addReport: (at: number) => Promise<number>;
  /** A report with its candidates and its evaluate job, as POST /capture/report stores it. */
  storeReport: (extraction: HarExtraction, at: number) => Promise<number>;
  /** A job row as given (no enqueue rules): returns its id. */
  addJob: (fields: JobFields) => Promise<number>;
  /** An archive row of `saveId` in `relPath` (another save's, to stand in a stage's way). */
  addArchive: (saveId: number, relPath: string) => Promise<void>;
  job: (id: number) => Promise<JobView>;
  outputsOf: (saveId: number) => Promise<unknown>;
  close: () => Promise<void>;
}

export type PipelineStoreKind = PreparedFixtureKind<PipelineFixture>;

const saveValues = (save: ArchivedSave) => ({
  sha256: crypto.randomUUID(),
  playerId: save.playerId,
  source: "upload" as const,
  encrypted: new Uint8Array([1, 2, 3]),
  size: 3,
  receivedAt: Date.now(),
  outputs: save.outputs,
  dropsFingerprint: save.dropsFingerprint,
});
const archiveValues = (saveId: number, save: ArchivedSave) => ({ saveId, playerId: save.playerId, relPath: save.relPath, token: save.token, files: save.files, createdAt: 0 });
const plainSave = (at: number, playerId = "1234567890123456789", region: Region | null = null) => ({ sha256: crypto.randomUUID(), playerId, source: "upload" as const, encrypted: new Uint8Array([1, 2, 3]), size: 3, receivedAt: at, region });
const reportValues = (at: number) => ({ receivedAt: at, shape: "har", entryCount: 1, candidateCount: 0, emptyBodies: 0, meta: {} });
const jobValues = (fields: JobFields, saveId: number | null) => ({ stage: "generate" as const, state: "pending" as const, createdAt: fields.runAt, updatedAt: fields.runAt, ...fields, saveId });
const otherArchive = (saveId: number, relPath: string) => ({ saveId, playerId: "1234567890123456789", relPath, token: crypto.randomUUID(), files: ["save.bin"], createdAt: 0 });

const storesOf = (db: Db): PipelineStores => ({ deliveries: sqliteDeliveryStore(db), jobs: sqliteJobStore(db), stageStore: sqliteStageStore(db), notifyReads: sqliteNotifyReads(db), watch: sqliteWatchStore(db), nudges: sqliteNudgeStore(db) });
const pgStoresOf = (db: PgDb): PipelineStores => ({ deliveries: pgDeliveryStore(db), jobs: pgJobStore(db), stageStore: pgStageStore(db), notifyReads: pgNotifyReads(db), watch: pgWatchStore(db), nudges: pgNudgeStore(db) });

export const sqlitePipelineStores: PipelineStoreKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const { db, another: openAnother, close } = sqliteHandles("pipeline-stores-");
    const { archives, deliveries, jobs, reports, saves } = sqlite;
    const stores = storesOf(db);
    return {
      stores,
      archivedSave: async (save) => {
        const saveId = db.insert(saves).values(saveValues(save)).returning({ id: saves.id }).get().id;
        db.insert(archives).values(archiveValues(saveId, save)).run();
        await stores.jobs.enqueueSave(saveId, 0, false);
        db.update(jobs).set({ stage: "notify" }).where(eq(jobs.saveId, saveId)).run();
        return saveId;
      },
      backToNotify: async (saveId, notify) => void db.update(jobs).set({ stage: "notify", state: "pending", runAt: 0, notify, leaseId: null }).where(eq(jobs.saveId, saveId)).run(),
      setOutputs: async (saveId, outputs) => void db.update(saves).set({ outputs }).where(eq(saves.id, saveId)).run(),
      clearDeliveries: async (saveId) => void db.delete(deliveries).where(eq(deliveries.saveId, saveId)).run(),
      deliveries: async (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.id).all(),
      archiveOf: async (saveId) => db.select().from(archives).where(eq(archives.saveId, saveId)).get(),
      addSave: async (at, playerId, region) => db.insert(saves).values(plainSave(at, playerId, region)).returning({ id: saves.id }).get().id,
      another: async () => storesOf(await openAnother()),
      addReport: async (at) => db.insert(reports).values(reportValues(at)).returning({ id: reports.id }).get().id,
      storeReport: (extraction, at) => sqliteReportStore(new GroupCommitter(db)).store(extraction, {}, at),
      addJob: async (fields) => {
        const saveId = fields.saveId !== undefined || fields.reportId != null ? (fields.saveId ?? null) : db.insert(saves).values(plainSave(fields.runAt)).returning({ id: saves.id }).get().id;
        return db.insert(jobs).values(jobValues(fields, saveId)).returning({ id: jobs.id }).get().id;
      },
      addArchive: async (saveId, relPath) => void db.insert(archives).values(otherArchive(saveId, relPath)).run(),
      job: async (id) => db.select().from(jobs).where(eq(jobs.id, id)).get()!,
      outputsOf: async (saveId) => db.select({ outputs: saves.outputs }).from(saves).where(eq(saves.id, saveId)).get()!.outputs,
      close,
    };
  },
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();

export const postgresPipelineStores: PipelineStoreKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const { db, another: openAnother, close } = await pgHandles(await pgDatabase(), "deliveries, archives, jobs, report_candidates, reports, saves, nudges, nudge_players RESTART IDENTITY CASCADE");
    const { archives, deliveries, jobs, reports, saves } = pg;
    const stores = pgStoresOf(db);
    return {
      stores,
      archivedSave: async (save) => {
        const saveId = (await db.insert(saves).values(saveValues(save)).returning({ id: saves.id }))[0]!.id;
        await db.insert(archives).values(archiveValues(saveId, save));
        await stores.jobs.enqueueSave(saveId, 0, false);
        await db.update(jobs).set({ stage: "notify" }).where(eq(jobs.saveId, saveId));
        return saveId;
      },
      backToNotify: async (saveId, notify) => void (await db.update(jobs).set({ stage: "notify", state: "pending", runAt: 0, notify, leaseId: null }).where(eq(jobs.saveId, saveId))),
      setOutputs: async (saveId, outputs) => void (await db.update(saves).set({ outputs }).where(eq(saves.id, saveId))),
      clearDeliveries: async (saveId) => void (await db.delete(deliveries).where(eq(deliveries.saveId, saveId))),
      deliveries: (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.id),
      archiveOf: async (saveId) => (await db.select().from(archives).where(eq(archives.saveId, saveId)))[0],
      addSave: async (at, playerId, region) => (await db.insert(saves).values(plainSave(at, playerId, region)).returning({ id: saves.id }))[0]!.id,
      another: async () => pgStoresOf(await openAnother()),
      addReport: async (at) => (await db.insert(reports).values(reportValues(at)).returning({ id: reports.id }))[0]!.id,
      storeReport: (extraction, at) => pgReportStore(db).store(extraction, {}, at),
      addJob: async (fields) => {
        const saveId = fields.saveId !== undefined || fields.reportId != null ? (fields.saveId ?? null) : (await db.insert(saves).values(plainSave(fields.runAt)).returning({ id: saves.id }))[0]!.id;
        return (await db.insert(jobs).values(jobValues(fields, saveId)).returning({ id: jobs.id }))[0]!.id;
      },
      addArchive: async (saveId, relPath) => void (await db.insert(archives).values(otherArchive(saveId, relPath))),
      job: async (id) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!,
      outputsOf: async (saveId) => (await db.select({ outputs: saves.outputs }).from(saves).where(eq(saves.id, saveId)))[0]!.outputs,
      close,
    };
  },
};
