/**
 * A hub's PostgreSQL database (DATABASE_URL=postgres://…) through drizzle over postgres-js. Migrations run under
 * a session advisory lock, so N processes may start at once: the first migrates, the others wait and find the
 * journal up to date.
 */
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { projectPath } from "../../runtime-files.ts";
import { preparedStatements } from "./prepared-client.ts";
import * as schema from "./schema.ts";

export type PgDb = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

/** The advisory lock key of schema migrations (any constant shared by every process of the service). */
const MIGRATION_LOCK = 0x6d79_736b; // "mysk"

export interface PgOptions {
  /** Connections this process may hold open (at least 2). */
  maxConnections?: number;
  /** A connect gives up past this (STORE_TIMEOUT_MS); postgres.js's own default waits 30 s. */
  connectTimeoutMs?: number;
}

/**
 * Seconds before a connection that closed is made again: postgres.js's default grows to 20 s after failures, so a
 * database back after a restart went unused for that long. A second at most: each try costs the server little.
 */
const reconnectDelay = (retries: number) => Math.min(1, 0.05 * 2 ** retries) * (0.5 + Math.random() / 2);

export async function openPostgres(url: string, options: PgOptions = {}): Promise<PgDb> {
  // Notices (e.g. "schema already exists, skipping") say nothing an operator needs, and may name the database.
  // At least two: the migration holds one connection for its lock and migrates over another.
  const client = postgres(url, {
    max: Math.max(2, options.maxConnections ?? 10),
    onnotice: () => {},
    connect_timeout: (options.connectTimeoutMs ?? 30_000) / 1000,
    backoff: reconnectDelay,
  });
  const db = drizzle({ client: preparedStatements(client), schema });
  await migrateUnderLock(client, db);
  return db;
}

async function migrateUnderLock(client: postgres.Sql, db: PgDb): Promise<void> {
  const lock = await client.reserve();
  try {
    await lock`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(db, { migrationsFolder: projectPath("drizzle/pg") });
  } finally {
    await lock`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
}

/** A transaction of `db.transaction(async (tx) => …)`. */
export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];
