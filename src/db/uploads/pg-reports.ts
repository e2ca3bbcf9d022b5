/** A report enters a hub's PostgreSQL with its candidate bodies and an evaluate job, in one transaction (as ../reports.ts). */
import type { HarExtraction } from "../../ingest/har.ts";
import { pgEnqueueReport } from "../jobs/pg-enqueue.ts";
import type { PgDb } from "../pg/open.ts";
import { reportCandidates, reports } from "../pg/schema.ts";

/** Candidates per INSERT: well under PostgreSQL's 65,535 parameters a statement. */
const CANDIDATE_BATCH = 500;

export function pgStoreReport(db: PgDb, extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): Promise<number> {
  const { shape, entryCount, emptyBodies, candidates } = extraction;
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(reports).values({ receivedAt, shape, entryCount, candidateCount: candidates.length, emptyBodies, meta }).returning({ id: reports.id });
    const reportId = row!.id;
    const rows = candidates.map(({ entryIndex, part, url, body, undecodable }, seq) => ({ reportId, seq, entryIndex, part, url, body, undecodable }));
    for (let from = 0; from < rows.length; from += CANDIDATE_BATCH) await tx.insert(reportCandidates).values(rows.slice(from, from + CANDIDATE_BATCH));
    await pgEnqueueReport(tx, reportId, receivedAt);
    return reportId;
  });
}
