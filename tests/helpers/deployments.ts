/**
 * The two ways the service is deployed, for suites that run their tests on both: one process on SQLite with a
 * local archive, and hub mode (PostgreSQL + a Swift bucket, started by the tests). A test reaches a deployment's
 * data only through this: its settings, rows by SQL, and the archive's file keys.
 */
import { afterAll, afterEach, beforeAll, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import postgres from "postgres";
import { query as sqliteQuery, writeStore } from "./db.ts";
import type { RunningServer } from "./in-process.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "./postgres.ts";
import { swiftBucket, swiftSkipReason, type SwiftBucket } from "./swift.ts";
import { hubSettings } from "./hub-link-key.ts";

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
        ...hubSettings(url),
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

/**
 * `test` for the SQLite half only: a rule a contract suite (tests/contract/*.contract.test.ts) proves on PostgreSQL
 * through the store's interface, or one no store plays a part in. HTTP shows it on SQLite; the hub's half keeps what
 * only HTTP on a hub can show (its answers end to end, the bucket, several processes, crashes) and leaves this out.
 */
export function sqliteHalfOnly(deployment: Deployment): (name: string, body: () => Promise<void>, timeoutMs?: number) => void {
  return deployment.hub ? () => {} : (name, body, timeoutMs) => test(name, body, timeoutMs);
}

/**
 * A write a test makes under a running server (a row as an older version or a stopped service left it). SQLite's
 * waits on the server's write lock (writeStore); PostgreSQL's is an ordinary statement on the deployment's connection.
 */
export async function run(deployment: Deployment, server: RunningServer, sql: string, ...params: Param[]): Promise<void> {
  if (deployment.hub) await deployment.query(server, sql, ...params);
  else writeStore(server.dbPath, sql, ...params);
}

/**
 * The archive's folders (`by-id/<player>/<stamp>`) that hold any object, the marker included. A hub's bucket is shared
 * by the file's tests: take `before` at a test's start to see only the folders it made.
 */
export async function archiveFolders(deployment: Deployment, server: RunningServer, before: string[] = []): Promise<string[]> {
  const folders = new Set((await deployment.archiveFiles(server)).map((file) => file.slice(0, file.lastIndexOf("/"))));
  for (const folder of before) folders.delete(folder);
  return [...folders].sort();
}

/** The files of one archive folder (its rel_path), the marker left out. */
export async function archiveFilesIn(deployment: Deployment, server: RunningServer, relPath: string): Promise<string[]> {
  const files = await deployment.archiveFiles(server);
  return files.filter((file) => file.startsWith(`${relPath}/`)).map((file) => file.slice(relPath.length + 1)).filter((name) => !name.startsWith(".")).sort();
}

/** One archive file's bytes, from DATA_DIR/archive or from the bucket that `settings` (a deployment's) name. */
export async function readArchiveFile(settings: Record<string, string>, server: RunningServer, relPath: string, name: string): Promise<Buffer> {
  if (!settings.ARCHIVE_URL) return readFileSync(join(server.dataDir, "archive", relPath, name));
  const { bucket, prefix } = /^s3:\/\/(?<bucket>[^/]+)\/(?<prefix>.*)$/.exec(settings.ARCHIVE_URL)!.groups!;
  const client = new Bun.S3Client({ bucket, endpoint: settings.S3_ENDPOINT, region: settings.S3_REGION, accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY });
  return Buffer.from(await client.file(`${prefix}/archive/${relPath}/${name}`).arrayBuffer());
}

/**
 * A suite's hooks on one deployment: its settings, filled in place once before the tests, and the services a test
 * starts (push them to `servers`), stopped after each test: a hub's services share its database and bucket, so one
 * left running would claim, and push, the next test's jobs.
 */
export function deploymentHooks(deployment: Deployment, signal?: "SIGKILL"): { settings: Record<string, string>; servers: RunningServer[] } {
  const settings: Record<string, string> = {};
  const servers: RunningServer[] = [];
  beforeAll(async () => void Object.assign(settings, await deployment.settings()), 180_000);
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.stop(signal);
      server.cleanup();
    }
  });
  afterAll(() => deployment.end());
  return { settings, servers };
}
