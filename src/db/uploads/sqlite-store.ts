/**
 * Uploads and reports over SQLite: each request's write is one synchronous function run in the group committer's
 * shared transaction (synchronous=FULL), so the promise the route awaits is the committer's own and the hot path
 * gains no await of its own.
 */
import type { ReportStore } from "../../http/report.ts";
import type { UploadStore } from "../../http/upload.ts";
import type { GroupCommitter } from "../group-commit.ts";
import type { Db } from "../open.ts";
import { storeReport } from "./sqlite-reports.ts";
import { acceptChunk, expireUploads } from "./sqlite.ts";

export function sqliteUploadStore(db: Db, committer: GroupCommitter): UploadStore {
  return {
    acceptChunk: (chunk, limits) => committer.run((tx) => acceptChunk(tx, chunk, limits)),
    // The instance lock admits one process per file: this one always expires.
    expire: async (now, ttlMs) => expireUploads(db, now, ttlMs),
  };
}

export function sqliteReportStore(committer: GroupCommitter): ReportStore {
  return { store: (extraction, meta, receivedAt) => committer.run((tx) => storeReport(tx, extraction, meta, receivedAt)) };
}
