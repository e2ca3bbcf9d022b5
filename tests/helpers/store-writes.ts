/**
 * The few states a test sets up by writing under a running service, where no port or CLI command makes them: a save
 * received days ago, an archive drawn at another time, a job made due again. Named here so that a schema change
 * reaches this file, not the tests (store-reads.ts is its reading twin). SQLite's wait on the server's write lock;
 * a hub's go through its deployment's connection.
 */
import { sha256Hex } from "../../src/sha256.ts";
import { run, type Deployment } from "./deployments.ts";
import { writeStore } from "./db.ts";
import type { RunningServer } from "./in-process.ts";
import type { Db } from "../../src/db/sqlite/open.ts";

type Param = string | number | null;
type Write = (sql: string, ...params: Param[]) => Promise<void>;

function named(write: Write) {
  return {
    /** As if the service had received the save at `at` (ms). */
    receivedAt: (saveId: number, at: number) => write("UPDATE saves SET received_at = ? WHERE id = ?", at, saveId),
    /** As if the save's archive had been drawn at `at` (ms). */
    archivedAt: (saveId: number, at: number) => write("UPDATE archives SET created_at = ? WHERE save_id = ?", at, saveId),
    /** As if the save were of another data type (a birthday party's refresh, say). */
    dataType: (saveId: number, dataType: string) => write("UPDATE saves SET data_type = ? WHERE id = ?", dataType, saveId),
    /** An archive's digest (null: as made before digests) and, when given, its file list (as an older version wrote it). */
    archiveDigest: (saveId: number, digest: unknown, files?: string[]) =>
      files
        ? write("UPDATE archives SET digest = ?, files = ? WHERE save_id = ?", digest === null ? null : JSON.stringify(digest), JSON.stringify(files), saveId)
        : write("UPDATE archives SET digest = ? WHERE save_id = ?", digest === null ? null : JSON.stringify(digest), saveId),
    archiveFiles: (saveId: number, files: string[]) => write("UPDATE archives SET files = ? WHERE save_id = ?", JSON.stringify(files), saveId),
    /** What retention leaves of a save past RETENTION_DAYS: no encrypted body. */
    dropBody: (saveId: number) => write("UPDATE saves SET encrypted = NULL WHERE id = ?", saveId),
    /** What retention leaves of a player's saves: no outputs model. */
    dropOutputsOf: (playerId: string) => write("UPDATE saves SET outputs = NULL WHERE player_id = ?", playerId),
    /** The store broken under the service: its reports table gone (a report's store fails inside the route). */
    breakReports: () => write("ALTER TABLE reports RENAME TO reports_gone"),
    /** The save's job queued again for `stage`, due at once (as a crash or an older version left it). */
    jobDue: (saveIds: number[], stage: string) =>
      write(`UPDATE jobs SET stage = ?, state = 'pending', run_at = 0 WHERE save_id IN (${saveIds.map(Number).join(",")})`, stage),
    /** A player linked, and the setup token, in the clear, as an older version stored them (the link made at 1 ms). */
    olderVersionsClearTokens: async (playerId: string, name: string, link: string, setup: string) => {
      await write("INSERT INTO players (player_id, name, token, token_sha256, created_at) VALUES (?, ?, ?, ?, 1)", playerId, name, link, sha256Hex(link));
      await write("UPDATE settings SET value = ? WHERE key = 'setup_token'", setup);
    },
    /** The save's job failed at `stage`, with `lastError` when given (the error left as it was otherwise). */
    jobFailed: (saveId: number, stage: string, lastError?: string) =>
      lastError === undefined
        ? write("UPDATE jobs SET state = 'failed', stage = ? WHERE save_id = ?", stage, saveId)
        : write("UPDATE jobs SET state = 'failed', stage = ?, last_error = ? WHERE save_id = ?", stage, lastError, saveId),
  };
}

export type StoreWrites = ReturnType<typeof named>;

export function writes(server: RunningServer, deployment?: Deployment): StoreWrites {
  return named(deployment ? (sql, ...params) => run(deployment, server, sql, ...params) : async (sql, ...params) => writeStore(server.dbPath, sql, ...params));
}

/** Writes into a SQLite store a test opened itself (a pipeline harness, an owner app). */
export const dbWrites = (db: Db): StoreWrites => named(async (sql, ...params) => void db.$client.query(sql).run(...params));
