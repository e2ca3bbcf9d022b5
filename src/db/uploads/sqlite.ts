/** Uploads over SQLite: the flow of ./accept-chunk.ts run in the group committer's synchronous transaction. */
import { sha256Hex } from "../../sha256.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../store/ports/ingest.ts";
import { sqliteFlow, sqliteTransaction } from "../dialect/sqlite.ts";
import type { Db, Tx } from "../sqlite/open.ts";
import * as rules from "./accept-chunk.ts";
import { expiredTasks } from "./statements.ts";

/** The instance lock admits one process per file: every expired task goes. */
const EXPIRED = expiredTasks("TRUE");

/** Stores one chunk (the route runs it in the group committer's transaction). */
export function acceptChunk(tx: Tx, chunk: IncomingChunk, limits: UploadLimits): ChunkOutcome {
  return sqliteFlow(tx, rules.acceptChunk(chunk, sha256Hex(chunk.body), limits));
}

export const expireUploads = (db: Db, now: number, ttlMs: number): number => sqliteTransaction(db, rules.expireUploads(EXPIRED, now, ttlMs));
