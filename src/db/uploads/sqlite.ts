/** Uploads over SQLite: the rule of ./accept-chunk.ts run in the group committer's synchronous transaction. */
import { sql } from "drizzle-orm";
import { sha256Hex } from "../../sha256.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../store/ports/ingest.ts";
import type { Db, Tx } from "../sqlite/open.ts";
import { sqliteRunner } from "../dialect/sqlite-runner.ts";
import { runSteps } from "../dialect/steps.ts";
import { acceptChunkSteps, expireUploadsSteps, type UploadDialect } from "./accept-chunk.ts";

/** SQLite's single writer places every chunk alone: no locks. */
const sqliteUploadDialect = (tx: Tx): UploadDialect => ({ sql: sqliteRunner(tx), lockUpload: () => undefined, lockOpenCaps: () => undefined });

/** Stores one chunk (the route runs it in the group committer's transaction). */
export function acceptChunk(tx: Tx, chunk: IncomingChunk, limits: UploadLimits): ChunkOutcome {
  return runSteps(acceptChunkSteps(sqliteUploadDialect(tx), chunk, sha256Hex(chunk.body), limits));
}

/** The instance lock admits one process per file: this one always expires. */
export function expireUploads(db: Db, now: number, ttlMs: number): number {
  return db.transaction((tx) => runSteps(expireUploadsSteps(sqliteUploadDialect(tx), now, ttlMs, sql`true`)), { behavior: "immediate" });
}
