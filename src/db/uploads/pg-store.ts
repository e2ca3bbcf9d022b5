/** Uploads and reports on a hub's PostgreSQL: one transaction per request, committed before the answer. */
import type { ReportStore } from "../../http/report.ts";
import type { UploadStore } from "../../http/upload.ts";
import type { PgDb } from "../pg/open.ts";
import { pgStoreReport } from "./pg-reports.ts";
import { pgAcceptChunk, pgExpireUploads } from "./pg.ts";

export function pgUploadStore(db: PgDb): UploadStore {
  return {
    acceptChunk: (chunk, limits) => pgAcceptChunk(db, chunk, limits),
    expire: (now, ttlMs) => pgExpireUploads(db, now, ttlMs),
  };
}

export function pgReportStore(db: PgDb): ReportStore {
  return { store: (extraction, meta, receivedAt) => pgStoreReport(db, extraction, meta, receivedAt) };
}
