/**
 * The stages' writes over a hub's PostgreSQL, the same rules as SQLite's src/db/stage-writes.ts (the contract test
 * holds them together): the job's fenced change and the stage's rows in one transaction. The fence goes first, so
 * a holder that lost its lease takes no other row lock and records nothing.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Recorded, StageStore, StageWrites } from "../../pipeline/stage-store.ts";
import { pgRecordChange } from "../jobs/pg-transitions.ts";
import type { PgDb, PgTx } from "./open.ts";
import { pgStoreSaveOnce } from "./saves.ts";
import { archiveFolders, archives, reportCandidates, reports, saves } from "./schema.ts";

export function pgStageStore(db: PgDb): StageStore {
  return {
    // Every commit waits for the disk here: `durable` is SQLite's choice.
    record: (job, writes, change, now) =>
      db.transaction(async (tx): Promise<Recorded> => {
        const moved = await pgRecordChange(tx, job, change, now);
        const saved = writes ? await applyWrites(tx, writes, now) : undefined;
        return { moved, saved };
      }),
    saveToDraw: async (saveId) => {
      const [row] = await db.select({ save: saves, archivePath: archives.relPath }).from(saves).leftJoin(archives, eq(archives.saveId, saves.id)).where(eq(saves.id, saveId));
      return row ?? null;
    },
    // A conflict waits for a concurrent claim's commit, keeps its holder and returns it (SET to itself).
    claimArchiveFolder: async (saveId, relPath) => {
      const [holder] = await db
        .insert(archiveFolders)
        .values({ relPath, saveId })
        .onConflictDoUpdate({ target: archiveFolders.relPath, set: { saveId: sql`${archiveFolders.saveId}` } })
        .returning({ saveId: archiveFolders.saveId });
      return holder!.saveId === saveId;
    },
    reportToEvaluate: async (reportId) => {
      const [report] = await db.select().from(reports).where(eq(reports.id, reportId));
      if (!report) return null;
      return { report, candidates: await db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId)).orderBy(asc(reportCandidates.seq)) };
    },
    playerOf: async (saveId) => (await db.select({ playerId: saves.playerId }).from(saves).where(eq(saves.id, saveId)))[0]?.playerId,
  };
}

async function applyWrites(tx: PgTx, writes: StageWrites, now: number): Promise<Recorded["saved"]> {
  switch (writes.kind) {
    case "drawn": {
      const { saveId, outputs, dropsFingerprint, archive } = writes;
      await tx.update(saves).set({ outputs, dropsFingerprint, partial: outputs.partial }).where(eq(saves.id, saveId));
      const { playerId, relPath, files, digest, token } = archive;
      await tx
        .insert(archives)
        .values({ saveId, playerId, relPath, token, files, digest, createdAt: now })
        .onConflictDoUpdate({ target: archives.saveId, set: { playerId, relPath, files, digest } });
      return undefined;
    }
    case "report_closed":
      await tx.update(reports).set({ outcome: writes.outcome, saveId: null, processedAt: writes.processedAt }).where(eq(reports.id, writes.reportId));
      if (writes.dropCandidates) await tx.delete(reportCandidates).where(eq(reportCandidates.reportId, writes.reportId));
      return undefined;
    case "report_save": {
      const stored = await pgStoreSaveOnce(tx, writes.save);
      await tx.update(reports).set({ outcome: stored.created ? "save" : "duplicate", saveId: stored.saveId, processedAt: writes.processedAt }).where(eq(reports.id, writes.reportId));
      await tx.delete(reportCandidates).where(eq(reportCandidates.reportId, writes.reportId));
      return { saveId: stored.saveId, created: stored.created };
    }
  }
}
