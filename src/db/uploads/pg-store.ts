/** Uploads and reports on a hub's PostgreSQL: one transaction per request, committed before the answer. */
import type { ReportStore, UploadStore } from "../../store/ports/ingest.ts";
import { enqueueReport } from "../jobs/index.ts";
import { pgFlow } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { pgRunner } from "../dialect/pg-runner.ts";
import { runStepsAsync } from "../dialect/steps.ts";
import { pgAcceptChunk, pgExpireUploads } from "./pg.ts";
import { storeReportSteps } from "./reports.ts";

export function pgUploadStore(db: PgDb): UploadStore {
  return {
    acceptChunk: (chunk, limits) => pgAcceptChunk(db, chunk, limits),
    expire: (now, ttlMs) => pgExpireUploads(db, now, ttlMs),
  };
}

export function pgReportStore(db: PgDb): ReportStore {
  return {
    store: (extraction, meta, receivedAt) =>
      db.transaction((tx) => runStepsAsync(storeReportSteps({ sql: pgRunner(tx), enqueueReport: (reportId, at) => pgFlow(tx, enqueueReport(reportId, at)) }, extraction, meta, receivedAt))),
  };
}
