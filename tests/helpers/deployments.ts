/**
 * The two ways the service is deployed, for suites that run their tests on both: one process on SQLite with a
 * local archive, and hub mode (PostgreSQL + a Swift bucket, started by the tests). A test reaches a deployment's
 * data only through this: its settings, rows by SQL, and the archive's file keys.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import postgres from "postgres";
import { query as sqliteQuery } from "./db.ts";
import type { RunningServer } from "./in-process.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "./postgres.ts";
import { swiftBucket, swiftSkipReason, type SwiftBucket } from "./swift.ts";

type Param = string | number | null;

export interface Deployment {
  name: string;
  hub: boolean;
  /** Why the suite cannot run here (the servers' binaries are missing), or null. */
  skip: string | null;
  /** Prepares the deployment (a database, a bucket) and returns the settings each of its services gets. Call once. */
  settings(): Promise<Record<string, string>>;
  /**
   * Rows from the deployment's database. Placeholders are `?` on both; bigint columns read as numbers and jsonb
   * columns as their values on PostgreSQL, where SQLite gives JSON text (`jsonValue` reads either).
   */
  query<T>(server: RunningServer, sql: string, ...params: Param[]): Promise<T[]>;
  /** Archive files, as `by-id/<player>/<stamp>/<file>` under the archive's root. */
  archiveFiles(server: RunningServer): Promise<string[]>;
  end(): Promise<void>;
}

export async function one<T>(deployment: Deployment, server: RunningServer, sql: string, ...params: Param[]): Promise<T | undefined> {
  return (await deployment.query<T>(server, sql, ...params))[0];
}

/** A JSON column's value, whichever store read it. */
export function jsonValue<T>(column: unknown): T {
  return (typeof column === "string" ? JSON.parse(column) : column) as T;
}

export function sqliteDeployment(): Deployment {
  return {
    name: "one process on SQLite",
    hub: false,
    skip: null,
    settings: async () => ({}),
    query: async <T>(server: RunningServer, sql: string, ...params: Param[]) => sqliteQuery<T>(server, sql, ...(params as (string | number)[])),
    archiveFiles: async (server) => {
      const root = join(server.dataDir, "archive");
      return filesUnder(join(root, "by-id")).map((path) => relative(root, path));
    },
    end: async () => {},
  };
}

function filesUnder(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));
}

/** Hub mode: a database of its own on the run's PostgreSQL and a bucket of its own on the run's Swift. */
export function hubDeployment(prefix = "hub"): Deployment {
  let sql: postgres.Sql | undefined;
  let bucket: SwiftBucket | undefined;
  return {
    name: "hub mode (PostgreSQL + Swift)",
    hub: true,
    skip: POSTGRES_MISSING ?? swiftSkipReason,
    settings: async () => {
      const [url, made] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
      bucket = made;
      sql = postgres(url, {
        max: 2,
        onnotice: () => {},
        types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
      });
      return {
        DATABASE_URL: url,
        ARCHIVE_URL: `s3://${bucket.bucket}/${prefix}`,
        S3_ENDPOINT: bucket.endpoint,
        S3_REGION: bucket.region,
        S3_ACCESS_KEY_ID: bucket.accessKeyId,
        S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      };
    },
    query: async <T>(_: RunningServer, text: string, ...params: Param[]) => {
      let n = 0;
      return (await sql!.unsafe(text.replace(/\?/g, () => `$${++n}`), params)) as unknown as T[];
    },
    archiveFiles: async () => {
      const client = new Bun.S3Client({ ...bucket! });
      const root = `${prefix}/archive/`;
      const keys: string[] = [];
      let startAfter: string | undefined;
      for (;;) {
        const page = await client.list({ prefix: `${root}by-id/`, ...(startAfter ? { startAfter } : {}) });
        const found = (page.contents ?? []).map((object) => object.key);
        keys.push(...found.map((key) => key.slice(root.length)));
        if (!page.isTruncated || found.length === 0) return keys;
        startAfter = found.at(-1);
      }
    },
    end: async () => void (await sql?.end()),
  };
}

/** Both deployments, for `for (const deployment of deployments()) describe.skipIf(…)(deployment.name, …)`. */
export function deployments(prefix?: string): Deployment[] {
  return [sqliteDeployment(), hubDeployment(prefix)];
}

/** An SQL expression for the type a column's value is stored as, the same word on both stores for text ("text"). */
export function columnType(deployment: Deployment, column: string): string {
  return deployment.hub ? `pg_typeof(${column})::text` : `typeof(${column})`;
}
