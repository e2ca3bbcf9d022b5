/** A report enters the store with its candidate bodies and an evaluate job, in one transaction. */
import type { HarExtraction } from "../ingest/har.ts";
import type { Tx } from "./open.ts";
import { jobs, reportCandidates, reports } from "./schema.ts";

/** Call inside a transaction (the route uses the group committer). */
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
  for (const [seq, candidate] of extraction.candidates.entries()) {
    tx.insert(reportCandidates)
      .values({ reportId: report.id, seq, entryIndex: candidate.entryIndex, part: candidate.part, url: candidate.url, body: Buffer.from(candidate.body) })
      .run();
  }
  tx.insert(jobs).values({ reportId: report.id, stage: "evaluate", runAt: receivedAt, createdAt: receivedAt, updatedAt: receivedAt }).run();
  return report.id;
}
