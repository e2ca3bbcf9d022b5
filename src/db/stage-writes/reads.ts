/** What the stages read (src/store/ports/stage-writes.ts) and their folder claim, written once for both stores over their statements. */
import type { StageCandidate, StageReport, StageSave, StageStore } from "../../store/ports/stage-writes.ts";
import { rowOf } from "../dialect/rows.ts";
import { first, read, type Reader } from "../dialect/statements.ts";
import { reportCandidates, reports, saves } from "../schema.ts";
import { CLAIM_FOLDER } from "./rules.ts";

const SAVE = rowOf<StageSave>(saves, "s");
const SAVE_TO_DRAW = read<{ archivePath: string | null } & StageSave>(
  (d) => `SELECT ${rowOf(saves, "s", { d }).columns}, a.rel_path AS "archivePath" FROM saves s LEFT JOIN archives a ON a.save_id = s.id WHERE s.id = $1`,
  SAVE.kinds,
);
const REPORT = rowOf<StageReport>(reports, "r");
const REPORT_BY_ID = read<StageReport>(`SELECT ${REPORT.columns} FROM reports r WHERE r.id = $1`, REPORT.kinds);
const CANDIDATE = rowOf<StageCandidate>(reportCandidates, "c");
const CANDIDATES = read<StageCandidate>((d) => `SELECT ${rowOf(reportCandidates, "c", { d }).columns} FROM report_candidates c WHERE c.report_id = $1 ORDER BY c.seq`, CANDIDATE.kinds);
const PLAYER_OF = read<{ playerId: string }>(`SELECT player_id AS "playerId" FROM saves WHERE id = $1`);
export function stageReads(db: Reader): Omit<StageStore, "record"> {
  return {
    saveToDraw: async (saveId) => {
      const row = await first(db, SAVE_TO_DRAW, [saveId]);
      if (row === null) return null;
      const { archivePath, ...save } = row;
      return { save, archivePath };
    },
    claimArchiveFolder: async (saveId, relPath) => (await db.all(CLAIM_FOLDER, [relPath, saveId]))[0]!.saveId === saveId,
    reportToEvaluate: async (reportId) => {
      const report = await first(db, REPORT_BY_ID, [reportId]);
      return report ? { report, candidates: await db.all(CANDIDATES, [reportId]) } : null;
    },
    playerOf: async (saveId) => (await first(db, PLAYER_OF, [saveId]))?.playerId,
  };
}
