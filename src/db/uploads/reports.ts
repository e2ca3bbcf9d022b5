/**
 * Reports and their candidate bodies, written here alone (both stores): a report enters with its candidates and
 * an evaluate job in one transaction, and evaluate closes it (src/db/stage-writes/rules.ts). Written once for both
 * stores (src/db/dialect/), run by ./sqlite-store.ts and ./pg-store.ts.
 */
import type { HarExtraction } from "../../ingest/har.ts";
import type { ReportOutcome } from "../../store/model/uploads.ts";
import { enqueueReport } from "../jobs/queue.ts";
import type { Primitives } from "../dialect/primitives.ts";
import { read, run, type Flow, type Param, type Read } from "../dialect/statements.ts";

/** Candidates per INSERT: 3,500 parameters, well under either store's limit a statement. */
const CANDIDATE_BATCH = 500;

const INSERT = read<{ id: number }>(
  `INSERT INTO reports (received_at, shape, entry_count, candidate_count, empty_bodies, meta) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
  { id: "int" },
);
const CANDIDATE_COLUMNS = 7;
const candidateTexts = new Map<number, Read<unknown>>();
/** The INSERT of `rows` candidates, one text per batch size (made once, as a driver prepares it once). */
function candidatesInsert(rows: number): Read<unknown> {
  let query = candidateTexts.get(rows);
  if (query === undefined) {
    const values = (d: Primitives) =>
      Array.from({ length: rows }, (_, r) => {
        const n = (column: number) => `$${r * CANDIDATE_COLUMNS + column}`;
        return `(${n(1)}, ${n(2)}, ${n(3)}, ${n(4)}, ${n(5)}, ${d.bytes(n(6))}, ${n(7)})`;
      }).join(", ");
    candidateTexts.set(rows, (query = read((d) => `INSERT INTO report_candidates (report_id, seq, entry_index, part, url, body, undecodable) VALUES ${values(d)}`)));
  }
  return query;
}

/** evaluate's verdict on report $1: its outcome ($2), the save it found (or none) and when. */
export const CLOSE_REPORT = read(`UPDATE reports SET outcome = $2, save_id = $3, processed_at = $4 WHERE id = $1`);
export const closeReportParams = (reportId: number, outcome: ReportOutcome, saveId: number | null, processedAt: number): Param[] => [reportId, outcome, saveId, processedAt];
export const DROP_CANDIDATES = read(`DELETE FROM report_candidates WHERE report_id = $1`);

/**
 * The retention sweep's deletes (src/db/retention/statements.ts), as SQL text in the sweep's placeholders:
 * the candidates of finished reports (`finished`, its condition on `r`) in batches of `limit`, then the reports
 * left without any. `key`: how a store names a candidate row (SQLite's rowid; PostgreSQL's primary key).
 */
export const reportSweeps = {
  candidates: (finished: string, limit: string, key: "rowid" | "(report_id, seq)") => `DELETE FROM report_candidates WHERE ${key} IN (
    SELECT ${key === "rowid" ? "c.rowid" : "c.report_id, c.seq"} FROM report_candidates c JOIN reports r ON r.id = c.report_id WHERE ${finished} LIMIT ${limit})`,
  reports: (finished: string, limit: string) => `DELETE FROM reports WHERE id IN (
    SELECT r.id FROM reports r WHERE ${finished}
      AND NOT EXISTS (SELECT 1 FROM report_candidates c WHERE c.report_id = r.id) LIMIT ${limit})`,
};

/** A report, its candidates and its evaluate job. */
export function* storeReport(extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): Flow<number> {
  const { candidates } = extraction;
  const [row] = yield* run(INSERT, [receivedAt, extraction.shape, extraction.entryCount, candidates.length, extraction.emptyBodies, JSON.stringify(meta)]);
  const reportId = row!.id;
  for (let from = 0; from < candidates.length; from += CANDIDATE_BATCH) {
    const batch = candidates.slice(from, from + CANDIDATE_BATCH);
    yield* run(candidatesInsert(batch.length), batch.flatMap(({ entryIndex, part, url, body, undecodable }, i): Param[] => [reportId, from + i, entryIndex, part, url, body, undecodable]));
  }
  yield* enqueueReport(reportId, receivedAt);
  return reportId;
}
