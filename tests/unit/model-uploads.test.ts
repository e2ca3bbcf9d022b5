/**
 * Both schemas' rows are the model's rows (src/store/model/) for the tables of uploads, reports, saves and archives:
 * the types by the compiler (`npx tsc --noEmit`, run by .ci/run: a row type that drifts from its model fails it),
 * the columns at run time (a column the model does not name fails here).
 */
import { expect, test } from "bun:test";
import { getTableColumns, type Table } from "drizzle-orm";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";
import type { ArchiveFolderRow, ArchivesRow } from "../../src/store/model/archives.ts";
import type { SaveRow } from "../../src/store/model/saves.ts";
import type { ReportCandidateRow, ReportRow, UploadChunkRow, UploadTaskRow } from "../../src/store/model/uploads.ts";

/** true when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Fits<Row, T extends { sqlite: Table; pg: Table }> = Same<T["sqlite"]["$inferSelect"], Row> extends true ? Same<T["pg"]["$inferSelect"], Row> : false;

const pair = <K extends keyof typeof sqlite & keyof typeof pg>(name: K) => ({ sqlite: sqlite[name], pg: pg[name] });
const tables = {
  uploads: pair("uploads"),
  uploadChunks: pair("uploadChunks"),
  reports: pair("reports"),
  reportCandidates: pair("reportCandidates"),
  saves: pair("saves"),
  archives: pair("archives"),
  archiveFolders: pair("archiveFolders"),
};

/** Each model row with every field named once: a field added to the model and not here fails the compiler. */
const modelFields = {
  uploads: { id: 1, uploadId: 1, totalChunks: 1, playerId: 1, bytes: 1, peer: 1, chunkHashes: 1, saveId: 1, completedAt: 1, createdAt: 1, updatedAt: 1 } satisfies Record<keyof UploadTaskRow, 1>,
  uploadChunks: { taskId: 1, chunkIndex: 1, size: 1, sha256: 1, body: 1 } satisfies Record<keyof UploadChunkRow, 1>,
  reports: { id: 1, receivedAt: 1, shape: 1, entryCount: 1, candidateCount: 1, emptyBodies: 1, meta: 1, outcome: 1, saveId: 1, processedAt: 1 } satisfies Record<keyof ReportRow, 1>,
  reportCandidates: { reportId: 1, seq: 1, entryIndex: 1, part: 1, url: 1, body: 1, undecodable: 1 } satisfies Record<keyof ReportCandidateRow, 1>,
  saves: { id: 1, sha256: 1, playerId: 1, source: 1, encrypted: 1, size: 1, receivedAt: 1, outputs: 1, dropsFingerprint: 1, repeatOf: 1, region: 1, dataType: 1, partial: 1 } satisfies Record<keyof SaveRow, 1>,
  archives: { saveId: 1, playerId: 1, relPath: 1, token: 1, files: 1, digest: 1, createdAt: 1 } satisfies Record<keyof ArchivesRow, 1>,
  archiveFolders: { relPath: 1, saveId: 1 } satisfies Record<keyof ArchiveFolderRow, 1>,
};

// The compiler's half: each line is `true` only while both schemas' select rows are exactly the model's.
const rowsFit: {
  uploads: Fits<UploadTaskRow, typeof tables.uploads>;
  uploadChunks: Fits<UploadChunkRow, typeof tables.uploadChunks>;
  reports: Fits<ReportRow, typeof tables.reports>;
  reportCandidates: Fits<ReportCandidateRow, typeof tables.reportCandidates>;
  saves: Fits<SaveRow, typeof tables.saves>;
  archives: Fits<ArchivesRow, typeof tables.archives>;
  archiveFolders: Fits<ArchiveFolderRow, typeof tables.archiveFolders>;
} = { uploads: true, uploadChunks: true, reports: true, reportCandidates: true, saves: true, archives: true, archiveFolders: true };

test("both schemas' tables have exactly the columns their model rows name", () => {
  for (const [name, { sqlite: sqliteTable, pg: pgTable }] of Object.entries(tables)) {
    const fields = Object.keys(modelFields[name as keyof typeof tables]).sort();
    expect({ name, columns: Object.keys(getTableColumns(sqliteTable)).sort() }).toEqual({ name, columns: fields });
    expect({ name, columns: Object.keys(getTableColumns(pgTable)).sort() }).toEqual({ name, columns: fields });
  }
  expect(Object.values(rowsFit).every(Boolean)).toBe(true);
});
