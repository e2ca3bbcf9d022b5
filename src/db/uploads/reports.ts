/**
 * Reports and their candidate bodies, written here alone (both stores): a report enters with its candidates and
 * an evaluate job in one transaction, and evaluate closes it (src/db/stage-writes/rules.ts). Plain SQL both
 * dialects read alike, run by ./sqlite-store.ts and ./pg-store.ts.
 */
import { sql } from "drizzle-orm";
import type { HarExtraction } from "../../ingest/har.ts";
import type { ReportOutcome } from "../../store/model/uploads.ts";
import { step, type Maybe, type SqlRunner, type Steps } from "../dialect/steps.ts";
import { read, type Param } from "../dialect/statements.ts";

/** Candidates per INSERT: 3,500 parameters, well under either store's limit a statement. */
const CANDIDATE_BATCH = 500;

export const reportStatements = {
  insert: (extraction: HarExtraction, meta: Record<string, string>, receivedAt: number) =>
    sql`INSERT INTO reports (received_at, shape, entry_count, candidate_count, empty_bodies, meta)
      VALUES (${receivedAt}, ${extraction.shape}, ${extraction.entryCount}, ${extraction.candidates.length}, ${extraction.emptyBodies}, ${JSON.stringify(meta)}) RETURNING id`,
  candidates: (reportId: number, first: number, batch: HarExtraction["candidates"]) =>
    sql`INSERT INTO report_candidates (report_id, seq, entry_index, part, url, body, undecodable) VALUES ${sql.join(
      batch.map(({ entryIndex, part, url, body, undecodable }, i) => sql`(${reportId}, ${first + i}, ${entryIndex}, ${part}, ${url}, ${body}, ${undecodable})`),
      sql`, `,
    )}`,
};

/** evaluate's verdict on report $1: its outcome ($2), the save it found (or none) and when. */
export const CLOSE_REPORT = read(`UPDATE reports SET outcome = $2, save_id = $3, processed_at = $4 WHERE id = $1`);
export const closeReportParams = (reportId: number, outcome: ReportOutcome, saveId: number | null, processedAt: number): Param[] => [reportId, outcome, saveId, processedAt];
export const DROP_CANDIDATES = read(`DELETE FROM report_candidates WHERE report_id = $1`);

/**
 * The retention sweep's deletes (src/db/retention/sqlite.ts, pg.ts), as SQL text in the sweep's placeholders:
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

/** What a store gives the report rule: its runner and its job queue's part. */
export interface ReportDialect {
  sql: SqlRunner;
  enqueueReport(reportId: number, at: number): Maybe<void>;
}

export function* storeReportSteps(store: ReportDialect, extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): Steps<number> {
  const [row] = yield* step(store.sql.all<{ id: number }>(reportStatements.insert(extraction, meta, receivedAt)));
  const reportId = row!.id;
  const { candidates } = extraction;
  for (let from = 0; from < candidates.length; from += CANDIDATE_BATCH) {
    yield* step(store.sql.run(reportStatements.candidates(reportId, from, candidates.slice(from, from + CANDIDATE_BATCH))));
  }
  yield* step(store.enqueueReport(reportId, receivedAt));
  return reportId;
}
