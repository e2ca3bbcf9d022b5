/**
 * Uploads and reports over SQLite: each request's write is one synchronous function run in the group committer's
 * shared transaction (synchronous=FULL), so the promise the route awaits is the committer's own and the hot path
 * gains no await of its own.
 */
import type { HarExtraction } from "../../ingest/har.ts";
import type { ReportStore, UploadStore } from "../../store/ports/ingest.ts";
import type { GroupCommitter } from "../sqlite/group-commit.ts";
import { sqliteFlow } from "../dialect/sqlite.ts";
import type { Db, Tx } from "../sqlite/open.ts";
import * as reports from "./reports.ts";
import { acceptChunk, expireUploads } from "./sqlite.ts";

export function sqliteUploadStore(db: Db, committer: GroupCommitter): UploadStore {
  return {
    acceptChunk: (chunk, limits) => committer.run((tx) => acceptChunk(tx, chunk, limits)),
    expire: async (now, ttlMs) => expireUploads(db, now, ttlMs),
  };
}

export function sqliteReportStore(committer: GroupCommitter): ReportStore {
  return { store: (extraction, meta, receivedAt) => committer.run((tx) => storeReport(tx, extraction, meta, receivedAt)) };
}

/** A report, its candidates and its evaluate job in the caller's transaction. */
export function storeReport(tx: Tx, extraction: HarExtraction, meta: Record<string, string>, receivedAt: number): number {
  return sqliteFlow(tx, reports.storeReport(extraction, meta, receivedAt));
}
