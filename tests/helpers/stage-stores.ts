/**
 * The two stage stores side by side for the contract suite (tests/unit/stage-store.contract.test.ts), each with
 * its job store on the same database, ways to add saves and reports as uploads do, and the rows the stages write,
 * read the same way for both dialects.
 */
import type { FixtureKind } from "./store-handles.ts";
import { asc, eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { openDatabase } from "../../src/db/open.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import * as pg from "../../src/db/pg/schema.ts";
import { pgStageStore } from "../../src/db/stage-writes/pg.ts";
import * as sqlite from "../../src/db/schema.ts";
import { sqliteStageStore } from "../../src/db/stage-writes/sqlite.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import type { StageStore, StageWrites } from "../../src/store/ports/stage-writes.ts";
import { databaseForThisFile } from "./postgres.ts";

type JobRow = typeof sqlite.jobs.$inferSelect;
type SaveRow = Omit<typeof sqlite.saves.$inferSelect, "encrypted">;
type ArchiveRow = typeof sqlite.archives.$inferSelect;
type ReportRow = typeof sqlite.reports.$inferSelect;

export interface StageFixture {
  store: StageStore;
  jobs: JobStore;
  /** A save with its generate job, as an upload stores it; returns the save's id. */
  addSave: (encrypted: Uint8Array, playerId: string, at: number) => Promise<number>;
  /** A report with two candidate bodies and its evaluate job; returns the report's id. */
  addReport: (at: number) => Promise<number>;
  jobOfSave: (saveId: number) => Promise<JobRow>;
  jobOfReport: (reportId: number) => Promise<JobRow>;
  save: (id: number) => Promise<SaveRow | undefined>;
  saveIds: () => Promise<number[]>;
  archives: () => Promise<ArchiveRow[]>;
  report: (id: number) => Promise<ReportRow>;
  candidates: (reportId: number) => Promise<number>;
  close: () => Promise<void>;
}

export type StageStoreKind = FixtureKind<StageFixture>;

/** What a generate stage writes for `saveId` archived at `relPath`. */
export const drawnWrites = (saveId: number, relPath: string, playerId = "1234567890123456789", partial = false): StageWrites => ({
  kind: "drawn",
  saveId,
  outputs: { partial, sites: [] } as unknown as SaveOutputs,
  dropsFingerprint: `drops-of-${saveId}`,
  archive: { playerId, relPath, files: ["save.bin", "overview.png"], digest: { partial: false, rare: [], newSongs: [], more: 0, sites: [] }, token: crypto.randomUUID() },
});

const saveValues = (encrypted: Uint8Array, playerId: string, at: number) => ({
  sha256: new Bun.CryptoHasher("sha256").update(encrypted).digest("hex"),
  playerId,
  source: "upload" as const,
  encrypted,
  size: encrypted.byteLength,
  receivedAt: at,
});
const reportValues = (at: number) => ({ receivedAt: at, shape: "har", entryCount: 2, candidateCount: 2, emptyBodies: 0, meta: { tool: "har" } });
/** Two candidate bodies, the second in order inserted first (so a read that ignores seq is seen): [9] then [8]. */
const candidateValues = (reportId: number) => [
  { reportId, seq: 1, entryIndex: 1, part: "response" as const, url: null, body: new Uint8Array([8]) },
  { reportId, seq: 0, entryIndex: 0, part: "response" as const, url: null, body: new Uint8Array([9]) },
];

export const sqliteStageStores: StageStoreKind = {
  name: "sqlite",
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "stage-store-"));
    const db = openDatabase(join(dir, "ingest.sqlite"));
    const { jobs, saves, reports, reportCandidates, archives } = sqlite;
    const jobStore = sqliteJobStore(db);
    return {
      store: sqliteStageStore(db),
      jobs: jobStore,
      addSave: async (encrypted, playerId, at) => {
        const id = db.insert(saves).values(saveValues(encrypted, playerId, at)).returning({ id: saves.id }).get().id;
        await jobStore.enqueueSave(id, at, false);
        return id;
      },
      addReport: async (at) => {
        const id = db.insert(reports).values(reportValues(at)).returning({ id: reports.id }).get().id;
        db.insert(reportCandidates).values(candidateValues(id)).run();
        await jobStore.enqueueReport(id, at);
        return id;
      },
      jobOfSave: async (saveId) => db.select().from(jobs).where(eq(jobs.saveId, saveId)).get()!,
      jobOfReport: async (reportId) => db.select().from(jobs).where(eq(jobs.reportId, reportId)).get()!,
      save: async (id) => {
        const row = db.select().from(saves).where(eq(saves.id, id)).get();
        if (!row) return undefined;
        const { encrypted: _bytes, ...rest } = row;
        return rest;
      },
      saveIds: async () => db.select({ id: saves.id }).from(saves).orderBy(asc(saves.id)).all().map((row) => row.id),
      archives: async () => db.select().from(archives).orderBy(asc(archives.saveId)).all(),
      report: async (id) => db.select().from(reports).where(eq(reports.id, id)).get()!,
      candidates: async (reportId) => db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId)).all().length,
      close: async () => {
        db.$client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** One database for the file, emptied for each fixture. */
let pgUrl: Promise<string> | undefined;

export const postgresStageStores: StageStoreKind = {
  name: "postgres",
  open: async () => {
    pgUrl ??= databaseForThisFile("migrated");
    const db = await openPostgres(await pgUrl, { maxConnections: 4 });
    await db.execute("TRUNCATE jobs, reports, saves RESTART IDENTITY CASCADE");
    const { jobs, saves, reports, reportCandidates, archives } = pg;
    const jobStore = pgJobStore(db);
    return {
      store: pgStageStore(db),
      jobs: jobStore,
      addSave: async (encrypted, playerId, at) => {
        const [row] = await db.insert(saves).values(saveValues(encrypted, playerId, at)).returning({ id: saves.id });
        await jobStore.enqueueSave(row!.id, at, false);
        return row!.id;
      },
      addReport: async (at) => {
        const [row] = await db.insert(reports).values(reportValues(at)).returning({ id: reports.id });
        await db.insert(reportCandidates).values(candidateValues(row!.id));
        await jobStore.enqueueReport(row!.id, at);
        return row!.id;
      },
      jobOfSave: async (saveId) => (await db.select().from(jobs).where(eq(jobs.saveId, saveId)))[0]!,
      jobOfReport: async (reportId) => (await db.select().from(jobs).where(eq(jobs.reportId, reportId)))[0]!,
      save: async (id) => {
        const [row] = await db.select().from(saves).where(eq(saves.id, id));
        if (!row) return undefined;
        const { encrypted: _bytes, ...rest } = row;
        return rest;
      },
      saveIds: async () => (await db.select({ id: saves.id }).from(saves).orderBy(asc(saves.id))).map((row) => row.id),
      archives: async () => db.select().from(archives).orderBy(asc(archives.saveId)),
      report: async (id) => (await db.select().from(reports).where(eq(reports.id, id)))[0]!,
      candidates: async (reportId) => (await db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId))).length,
      close: () => db.$client.end(),
    };
  },
};
