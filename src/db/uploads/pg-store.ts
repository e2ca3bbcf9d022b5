/** Uploads and reports on a hub's PostgreSQL: one transaction per request, committed before the answer. */
import type { ReportStore, UploadStore } from "../../store/ports/ingest.ts";
import { pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { pgAcceptChunk, pgExpireUploads } from "./pg.ts";
import { storeReport } from "./reports.ts";

export function pgUploadStore(db: PgDb): UploadStore {
  return {
    acceptChunk: (chunk, limits) => pgAcceptChunk(db, chunk, limits),
    expire: (now, ttlMs) => pgExpireUploads(db, now, ttlMs),
  };
}

export function pgReportStore(db: PgDb): ReportStore {
  const statements = pgStatements(db);
  return { store: (extraction, meta, receivedAt) => statements.transaction(() => storeReport(extraction, meta, receivedAt)) };
}
