/**
 * The stages' writes over SQLite: the flow of ./rules.ts and the job's change in one synchronous transaction (no
 * async callback ever reaches db.transaction), committed without waiting for the disk unless `durable`.
 */
import type { ArchiveRow, StageStore } from "../../store/ports/stage-writes.ts";
import { sqliteFlow, sqliteStatements, sqliteTransaction } from "../dialect/sqlite.ts";
import { run } from "../dialect/statements.ts";
import { replayableCommit, type Db, type Tx } from "../sqlite/open.ts";
import { ARCHIVE_ROW_UPSERT, archiveRowParams, recordStage } from "./rules.ts";
import { stageReads } from "./reads.ts";

export function sqliteStageStore(db: Db): StageStore {
  return {
    record: async (job, writes, change, now, durable) => {
      const commit = () => sqliteTransaction(db, recordStage(job, writes, change, now));
      return durable ? commit() : replayableCommit(db, commit);
    },
    ...stageReads(sqliteStatements(db)),
  };
}

/** Inserts a save's archives row, or re-points it (keeping its token) when the save was archived before. */
export function recordArchiveRow(tx: Tx, saveId: number, archive: ArchiveRow, now: number): void {
  sqliteFlow(tx, run(ARCHIVE_ROW_UPSERT, archiveRowParams(saveId, archive, now)));
}
