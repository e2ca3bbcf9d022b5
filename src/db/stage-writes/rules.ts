/**
 * What a stage wrote, as flows written once for both stores: generate's outputs and archives row, evaluate's
 * verdict on its report (and the save it found). The saves' and reports' statements are their owners'
 * (src/db/saves/, src/db/uploads/reports.ts); the archives rows are this area's.
 */
import type { ArchiveRow, Recorded, StageWrites } from "../../store/ports/stage-writes.ts";
import type { Primitives } from "../dialect/primitives.ts";
import { read, run, type Flow, type Param } from "../dialect/statements.ts";
import { record } from "../jobs/transitions.ts";
import type { ClaimedJob, Transition } from "../../store/model/jobs.ts";
import { DRAWN, drawnParams, storeSaveOnce } from "../saves/rules.ts";
import { CLOSE_REPORT, closeReportParams, DROP_CANDIDATES } from "../uploads/reports.ts";

/**
 * Inserts a save's archives row, or re-points it (keeping its token, so /maps/<token>/… URLs already pushed keep
 * working), by archiveRowParams. An INSERT … SELECT so that `onlyIf` can hold it back: PostgreSQL's one-statement
 * record's fence (src/db/stage-writes/pg.ts); its values are typed here, which a SELECT does not take from the table.
 */
export const archiveRowUpsert = (onlyIf: string) => (d: Primitives) =>
  `INSERT INTO archives (save_id, player_id, rel_path, token, files, digest, created_at)
   SELECT CAST($1 AS integer), $2, $3, $4, ${d.json("$5")}, ${d.json("$6")}, CAST($7 AS bigint) WHERE ${onlyIf}
   ON CONFLICT (save_id) DO UPDATE SET player_id = excluded.player_id, rel_path = excluded.rel_path, files = excluded.files, digest = excluded.digest`;
export const ARCHIVE_ROW_UPSERT = read(archiveRowUpsert("TRUE"));
export const archiveRowParams = (saveId: number, { playerId, relPath, files, digest, token }: ArchiveRow, now: number): Param[] => [
  saveId,
  playerId,
  relPath,
  token,
  JSON.stringify(files),
  JSON.stringify(digest),
  now,
];

/** A conflict keeps the holder and returns it (SET to itself), so the answer is the row as it stands (PostgreSQL: after a concurrent claim commits). */
export const CLAIM_FOLDER = read<{ saveId: number }>(
  `INSERT INTO archive_folders (rel_path, save_id) VALUES ($1, $2) ON CONFLICT (rel_path) DO UPDATE SET save_id = archive_folders.save_id RETURNING save_id AS "saveId"`,
  { saveId: "int" },
);

/** The stage's rows, in the transaction that records its job's change. */
export function* applyWrites(writes: StageWrites, now: number): Flow<Recorded["saved"]> {
  switch (writes.kind) {
    case "drawn":
      yield* run(DRAWN, drawnParams(writes.saveId, writes.outputs, writes.dropsFingerprint));
      yield* run(ARCHIVE_ROW_UPSERT, archiveRowParams(writes.saveId, writes.archive, now));
      return undefined;
    case "report_closed":
      yield* run(CLOSE_REPORT, closeReportParams(writes.reportId, writes.outcome, null, writes.processedAt));
      if (writes.dropCandidates) yield* run(DROP_CANDIDATES, [writes.reportId]);
      return undefined;
    case "report_save": {
      const stored = yield* storeSaveOnce(writes.save);
      yield* run(CLOSE_REPORT, closeReportParams(writes.reportId, stored.created ? "save" : "duplicate", stored.saveId, writes.processedAt));
      yield* run(DROP_CANDIDATES, [writes.reportId]);
      return { saveId: stored.saveId, created: stored.created };
    }
  }
}

/**
 * A stage's record, in one transaction on either store: the job's fenced change first (a holder that lost its lease
 * takes no other row lock and writes nothing), then the stage's rows.
 */
export function* recordStage(job: ClaimedJob, writes: StageWrites | undefined, change: Transition, now: number): Flow<Recorded> {
  const moved = yield* record(job, change, now);
  return { moved, saved: writes ? yield* applyWrites(writes, now) : undefined };
}
