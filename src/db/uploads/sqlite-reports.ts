/** A report enters the store with its candidate bodies and an evaluate job, in one transaction. */
import { sql } from "drizzle-orm";
import type { HarExtraction } from "../../ingest/har.ts";
import { prepared, type Tx } from "../open.ts";
import { enqueueReport } from "../jobs/index.ts";
import { reportCandidates, reports } from "../schema.ts";

/** Every report runs these (src/db/open.ts `prepared`). */
const reportQueries = (tx: Tx) => ({
  insert: tx
    .insert(reports)
    .values({
      receivedAt: sql.placeholder("receivedAt"),
      shape: sql.placeholder("shape"),
      entryCount: sql.placeholder("entryCount"),
      candidateCount: sql.placeholder("candidateCount"),
      emptyBodies: sql.placeholder("emptyBodies"),
      meta: sql.placeholder("meta"),
    })
    .returning({ id: reports.id })
    .prepare(),
  insertCandidate: tx
    .insert(reportCandidates)
    .values({
      reportId: sql.placeholder("reportId"),
      seq: sql.placeholder("seq"),
      entryIndex: sql.placeholder("entryIndex"),
      part: sql.placeholder("part"),
      url: sql.placeholder("url"),
      body: sql.placeholder("body"),
      undecodable: sql.placeholder("undecodable"),
    })
    .prepare(),
});

/** The route runs it in the group committer's transaction. */
export function storeReport(tx: Tx, extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): number {
  const queries = prepared(tx, reportQueries);
  const { shape, entryCount, emptyBodies, candidates } = extraction;
  const reportId = queries.insert.get({ receivedAt, shape, entryCount, candidateCount: candidates.length, emptyBodies, meta })!.id;
  for (const [seq, { entryIndex, part, url, body, undecodable }] of candidates.entries()) {
    queries.insertCandidate.run({ reportId, seq, entryIndex, part, url, body, undecodable });
  }
  enqueueReport(tx, reportId, receivedAt);
  return reportId;
}
