/**
 * The stages' writes over SQLite: the rows a stage produced and its job's change in one synchronous transaction
 * (no async callback ever reaches db.transaction), committed without waiting for the disk unless `durable`.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { ArchiveRow, Recorded, StageStore, StageWrites } from "../../store/ports/stage-writes.ts";
import { rerunIfFlagged, transition } from "../jobs/index.ts";
import { replayableCommit, type Db, type Tx } from "../open.ts";
import { storeSaveOnce } from "../saves/sqlite.ts";
import { archiveFolders, archives, reportCandidates, reports, saves } from "../schema.ts";

export function sqliteStageStore(db: Db): StageStore {
  return {
    record: async (job, writes, change, now, durable) => {
      const commit = () =>
        db.transaction((tx): Recorded => {
          const saved = writes ? applyWrites(tx, writes, now) : undefined;
          if (rerunIfFlagged(tx, job, now)) return { moved: "redraw", saved };
          transition(tx, job, change, now);
          return { moved: "recorded", saved };
        }, { behavior: "immediate" });
      return durable ? commit() : replayableCommit(db, commit);
    },
    saveToDraw: async (saveId) => {
      const save = db.select().from(saves).where(eq(saves.id, saveId)).get();
      if (!save) return null;
      return { save, archivePath: db.select({ relPath: archives.relPath }).from(archives).where(eq(archives.saveId, saveId)).get()?.relPath ?? null };
    },
    claimArchiveFolder: async (saveId, relPath) => claimFolder(db, saveId, relPath),
    reportToEvaluate: async (reportId) => {
      const report = db.select().from(reports).where(eq(reports.id, reportId)).get();
      if (!report) return null;
      return { report, candidates: db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId)).orderBy(asc(reportCandidates.seq)).all() };
    },
    playerOf: async (saveId) => db.select({ playerId: saves.playerId }).from(saves).where(eq(saves.id, saveId)).get()?.playerId,
  };
}

/** One statement: a conflict keeps the holder and returns it (SET to itself), so the answer is the row as it stands. */
function claimFolder(db: Db, saveId: number, relPath: string): boolean {
  const holder = db
    .insert(archiveFolders)
    .values({ relPath, saveId })
    .onConflictDoUpdate({ target: archiveFolders.relPath, set: { saveId: sql`${archiveFolders.saveId}` } })
    .returning({ saveId: archiveFolders.saveId })
    .get();
  return holder.saveId === saveId;
}

function applyWrites(tx: Tx, writes: StageWrites, now: number): Recorded["saved"] {
  switch (writes.kind) {
    case "drawn": {
      const { saveId, outputs, dropsFingerprint, archive } = writes;
      tx.update(saves).set({ outputs, dropsFingerprint, partial: outputs.partial }).where(eq(saves.id, saveId)).run();
      recordArchiveRow(tx, saveId, archive, now);
      return undefined;
    }
    case "report_closed":
      tx.update(reports).set({ outcome: writes.outcome, saveId: null, processedAt: writes.processedAt }).where(eq(reports.id, writes.reportId)).run();
      if (writes.dropCandidates) tx.delete(reportCandidates).where(eq(reportCandidates.reportId, writes.reportId)).run();
      return undefined;
    case "report_save": {
      const stored = storeSaveOnce(tx, writes.save);
      tx.update(reports).set({ outcome: stored.created ? "save" : "duplicate", saveId: stored.saveId, processedAt: writes.processedAt }).where(eq(reports.id, writes.reportId)).run();
      tx.delete(reportCandidates).where(eq(reportCandidates.reportId, writes.reportId)).run();
      return { saveId: stored.saveId, created: stored.created };
    }
  }
}

/** Inserts a save's archives row, or re-points it (keeping its token) when the save was archived before. */
export function recordArchiveRow(tx: Tx, saveId: number, archive: ArchiveRow, now: number): void {
  const { playerId, relPath, files, digest, token } = archive;
  tx.insert(archives)
    .values({ saveId, playerId, relPath, token, files, digest, createdAt: now })
    .onConflictDoUpdate({ target: archives.saveId, set: { playerId, relPath, files, digest } })
    .run();
}
