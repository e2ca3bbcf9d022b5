/**
 * What a stage wrote, as statements written once for both stores: generate's outputs and archives row, evaluate's
 * verdict on its report (and the save it found). The saves' and reports' statements are their owners'
 * (src/db/saves/, src/db/uploads/reports.ts); the archives rows are this area's.
 */
import { sql } from "drizzle-orm";
import type { ArchiveRow, Recorded, StageWrites } from "../../store/ports/stage-writes.ts";
import { saveStatements, storeSaveOnceSteps, type SaveDialect } from "../saves/rules.ts";
import { reportStatements } from "../uploads/reports.ts";
import { step, type Steps } from "../dialect/steps.ts";

/** Inserts a save's archives row, or re-points it (keeping its token, so /maps/<token>/… URLs already pushed keep working). */
export const archiveRowUpsert = (saveId: number, { playerId, relPath, files, digest, token }: ArchiveRow, now: number) =>
  sql`INSERT INTO archives (save_id, player_id, rel_path, token, files, digest, created_at)
    VALUES (${saveId}, ${playerId}, ${relPath}, ${token}, ${JSON.stringify(files)}, ${JSON.stringify(digest)}, ${now})
    ON CONFLICT (save_id) DO UPDATE SET player_id = excluded.player_id, rel_path = excluded.rel_path, files = excluded.files, digest = excluded.digest`;

/** A conflict keeps the holder and returns it (SET to itself), so the answer is the row as it stands (PostgreSQL: after a concurrent claim commits). */
export const archiveFolderClaim = (saveId: number, relPath: string) =>
  sql`INSERT INTO archive_folders (rel_path, save_id) VALUES (${relPath}, ${saveId})
    ON CONFLICT (rel_path) DO UPDATE SET save_id = archive_folders.save_id RETURNING save_id AS "saveId"`;

/** The stage's rows, in the transaction that records its job's change. */
export function* applyWritesSteps(store: SaveDialect, writes: StageWrites, now: number): Steps<Recorded["saved"]> {
  switch (writes.kind) {
    case "drawn":
      yield* step(store.sql.run(saveStatements.drawn(writes.saveId, writes.outputs, writes.dropsFingerprint)));
      yield* step(store.sql.run(archiveRowUpsert(writes.saveId, writes.archive, now)));
      return undefined;
    case "report_closed":
      yield* step(store.sql.run(reportStatements.close(writes.reportId, writes.outcome, null, writes.processedAt)));
      if (writes.dropCandidates) yield* step(store.sql.run(reportStatements.dropCandidates(writes.reportId)));
      return undefined;
    case "report_save": {
      const stored = yield* storeSaveOnceSteps(store, writes.save);
      yield* step(store.sql.run(reportStatements.close(writes.reportId, stored.created ? "save" : "duplicate", stored.saveId, writes.processedAt)));
      yield* step(store.sql.run(reportStatements.dropCandidates(writes.reportId)));
      return { saveId: stored.saveId, created: stored.created };
    }
  }
}
