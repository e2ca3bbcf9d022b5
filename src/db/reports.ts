/** A report enters the store with its candidate bodies and an evaluate job, in one transaction. */
import { sql } from "drizzle-orm";
import type { HarExtraction } from "../ingest/har.ts";
import type { Tx } from "./open.ts";
import { jobs, reportCandidates, reports } from "./schema.ts";

/** The route runs it in the group committer's transaction. Candidates cost one prepared insert. */
export function storeReport(tx: Tx, extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): number {
  const report = tx
    .insert(reports)
    .values({
      receivedAt,
      shape: extraction.shape,
      entryCount: extraction.entryCount,
      candidateCount: extraction.candidates.length,
      emptyBodies: extraction.emptyBodies,
      meta,
    })
    .returning({ id: reports.id })
    .get();
  if (extraction.candidates.length > 0) {
    const insertCandidate = tx
      .insert(reportCandidates)
      .values({
        reportId: report.id,
        seq: sql.placeholder("seq"),
        entryIndex: sql.placeholder("entryIndex"),
        part: sql.placeholder("part"),
        url: sql.placeholder("url"),
        body: sql.placeholder("body"),
        undecodable: sql.placeholder("undecodable"),
      })
      .prepare();
    for (const [seq, candidate] of extraction.candidates.entries()) {
      const { entryIndex, part, url, body, undecodable } = candidate;
      insertCandidate.run({ seq, entryIndex, part, url, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), undecodable });
    }
  }
  tx.insert(jobs).values({ reportId: report.id, stage: "evaluate", runAt: receivedAt, createdAt: receivedAt, updatedAt: receivedAt }).run();
  return report.id;
}
