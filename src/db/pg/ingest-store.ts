/** Uploads and reports on a hub's PostgreSQL: one transaction per request, committed before the answer. */
import type { ReportStore } from "../../http/report.ts";
import type { UploadStore } from "../../http/upload.ts";
import type { PgDb } from "./open.ts";
import { pgStoreReport } from "./reports.ts";
import { pgAcceptChunk, pgExpireUploads } from "./uploads.ts";

export function pgUploadStore(db: PgDb): UploadStore {
  return {
    acceptChunk: (chunk, limits) => pgAcceptChunk(db, chunk, limits),
    expire: (now, ttlMs) => pgExpireUploads(db, now, ttlMs),
  };
}

export function pgReportStore(db: PgDb): ReportStore {
  return { store: (extraction, meta, receivedAt) => pgStoreReport(db, extraction, meta, receivedAt) };
}
