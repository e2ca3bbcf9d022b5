/**
 * The stages' writes over SQLite: the rows of ./rules.ts and the job's change in one synchronous transaction (no
 * async callback ever reaches db.transaction), committed without waiting for the disk unless `durable`.
 */
import { asc, eq } from "drizzle-orm";
import type { ArchiveRow, Recorded, StageStore } from "../../store/ports/stage-writes.ts";
import { record } from "../jobs/index.ts";
import { sqliteFlow } from "../dialect/sqlite.ts";
import { replayableCommit, type Db, type Tx } from "../sqlite/open.ts";
import { sqliteSaveDialect } from "../saves/sqlite.ts";
import { archives, reportCandidates, reports, saves } from "../schema.ts";
import { runSteps } from "../dialect/steps.ts";
import { applyWritesSteps, archiveFolderClaim, archiveRowUpsert } from "./rules.ts";

export function sqliteStageStore(db: Db): StageStore {
  return {
    record: async (job, writes, change, now, durable) => {
      const commit = () =>
        db.transaction((tx): Recorded => {
          const saved = writes ? runSteps(applyWritesSteps(sqliteSaveDialect(tx), writes, now)) : undefined;
          return { moved: sqliteFlow(tx, record(job, change, now)), saved };
        }, { behavior: "immediate" });
      return durable ? commit() : replayableCommit(db, commit);
    },
    saveToDraw: async (saveId) => {
      const save = db.select().from(saves).where(eq(saves.id, saveId)).get();
      return save ? { save, archivePath: db.select({ relPath: archives.relPath }).from(archives).where(eq(archives.saveId, saveId)).get()?.relPath ?? null } : null;
    },
    claimArchiveFolder: async (saveId, relPath) => db.all<{ saveId: number }>(archiveFolderClaim(saveId, relPath))[0]!.saveId === saveId,
    reportToEvaluate: async (reportId) => {
      const report = db.select().from(reports).where(eq(reports.id, reportId)).get();
      return report ? { report, candidates: db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId)).orderBy(asc(reportCandidates.seq)).all() } : null;
    },
    playerOf: async (saveId) => db.select({ playerId: saves.playerId }).from(saves).where(eq(saves.id, saveId)).get()?.playerId,
  };
}

/** Inserts a save's archives row, or re-points it (keeping its token) when the save was archived before. */
export function recordArchiveRow(tx: Tx, saveId: number, archive: ArchiveRow, now: number): void {
  tx.run(archiveRowUpsert(saveId, archive, now));
}
