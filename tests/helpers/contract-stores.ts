/**
 * The stores of each deployment as the service opens them, for the contract suites (tests/contract/): `openStores`
 * (src/stores.ts) over a config the real loader makes from an env, SQLite's file in a temp folder or a hub's
 * PostgreSQL (the run's shared server under `npm test`, one of its own when a file runs alone). Every test gets
 * empty stores; `another()` opens the same database again, as a second process of a hub. SQLite's are opened as the
 * owner CLI opens them beside a service (no instance lock, no checkpointer worker: those are SQLite's own tests).
 * Rows are written through the ports (`rows`, tests/helpers/rows.ts) and read through them or the owner views (`view`).
 */
import { afterAll, afterEach, beforeEach, describe } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openArchiveStore, type ArchiveStore } from "../../src/archive/store.ts";
import { loadConfig, type Config } from "../../src/config/index.ts";
import { openStores, type Stores } from "../../src/stores.ts";
import { Database } from "bun:sqlite";
import { databaseForThisFile, POSTGRES_MISSING } from "./postgres.ts";
import { jobRows, type JobRows } from "./job-rows.ts";
import { contractSql, type ContractSql } from "./contract-sql.ts";
import { rowsOver, type Rows } from "./rows.ts";
import { pgReader, sqliteReader, type Row } from "./view-readers.ts";
import { hubSettings } from "./hub-link-key.ts";

export type StoreName = "sqlite" | "postgres";

export interface StoreUnderTest {
  name: StoreName;
  /** PostgreSQL: several processes may share the store. */
  hub: boolean;
  config: Config;
  stores: Stores;
  /** The same database opened again, as another process has it (over `archive`: the test's unless given; `env`: settings that process has of its own, e.g. another LINK_KEY). */
  another: (archive?: ArchiveStore, env?: Record<string, string>) => Promise<Stores>;
  /** The archive the stores were opened with (a disk folder under DATA_DIR). */
  archive: ArchiveStore;
  archiveRoot: string;
  rows: Rows;
  /** Rows of a query over the owner views (drizzle/0019_owner_views.sql), read-only as an owner reads them. */
  view: (query: string) => Promise<Row[]>;
  /**
   * SQL of the test's own, only where the stored form is the subject (a hash kept in place of a secret, a table's
   * bound) or a write no port makes (a cap filled in one statement, a row as an older version left it). The same
   * text on both stores; numbers read as numbers.
   */
  sql: RawSql;
  /** Job rows as stored (tests/helpers/job-rows.ts), over `sql`. */
  jobRows: JobRows;
  /** Named reads of what no port shows and set-ups no port makes (tests/helpers/contract-sql.ts), over `sql`. */
  stored: ContractSql;
}

export interface RawSql {
  /** `params` bind to `?` placeholders (or a statement's own numbered ones: `?n` on SQLite, `$n` on PostgreSQL). */
  rows: (query: string, params?: Param[]) => Promise<Row[]>;
  /** `params` bind to `?` placeholders, on both stores. */
  exec: (statement: string, params?: Param[]) => Promise<void>;
  /** The first column of every row, as text. */
  column: (query: string) => Promise<string[]>;
  /** The first column of the first row, as a number. */
  scalar: (query: string) => Promise<number>;
  /**
   * A row of `table` with `values` (camelCase names of its snake_case columns; objects stored as JSON), as a store
   * leaves it; its id, where the table has one.
   */
  insert: (table: string, values: Record<string, unknown>) => Promise<number>;
}

/** A value bound to a `?`; an object (not bytes) goes to a JSON column: PostgreSQL's driver writes it as JSON, SQLite's takes its text. */
type Param = string | number | boolean | null | Uint8Array | object;

/** One database for the file on the run's PostgreSQL, emptied before each test. */
let database: Promise<string> | undefined;

/**
 * Empties every table that holds a row (a TRUNCATE of them all costs more than the checks) and restarts every id
 * sequence used, so that ids count from 1 as in SQLite's new file.
 */
const EMPTY_DATABASE = `DO $$
DECLARE t text; held boolean; dirty text[] := '{}';
BEGIN
  FOR t IN SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', t) INTO held;
    IF held THEN dirty := dirty || t; END IF;
  END LOOP;
  IF cardinality(dirty) > 0 THEN EXECUTE 'TRUNCATE ' || array_to_string(dirty, ', ') || ' CASCADE'; END IF;
  PERFORM setval(format('%I', sequencename)::regclass, 1, false) FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL;
END $$`;

interface Connection {
  /** `?` placeholders on both stores. */
  rows: (query: string, params?: Param[]) => Promise<Row[]>;
  exec: (statement: string) => Promise<void>;
  close: () => Promise<void>;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function sqlOver(open: () => Connection): RawSql {
  const column = async (query: string) => (await open().rows(query)).map((row) => String(Object.values(row)[0]));
  return {
    rows: (query, params) => open().rows(query, params),
    exec: async (statement, params) => void (params ? await open().rows(statement, params) : await open().exec(statement)),
    column,
    scalar: async (query) => Number((await column(query))[0]),
    insert: async (table, values) => {
      const names = Object.keys(values);
      const [row] = await open().rows(`INSERT INTO ${table} (${names.map(snake).join(", ")}) VALUES (${names.map(() => "?").join(", ")}) RETURNING *`, names.map((name) => (values[name] ?? null) as Param));
      return Number(row?.id);
    },
  };
}

function rawSql(path: string, url: string | undefined): Connection {
  if (url) {
    const sql = postgres(url, { max: 2, onnotice: () => {}, types: { bigint: { to: 20, from: [20], serialize: String, parse: Number } } });
    return {
      rows: async (query, params = []) => {
        let n = 0;
        return [...(await sql.unsafe(query.replace(/\?/g, () => `$${++n}`), params.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value)) as never[]))] as Row[];
      },
      exec: async (statement) => void (await sql.unsafe(statement)),
      close: () => sql.end(),
    };
  }
  const db = new Database(path);
  db.run("PRAGMA busy_timeout = 10000");
  const bound = (value: Param) => (value === null || value instanceof Uint8Array || typeof value !== "object" ? value : JSON.stringify(value));
  return { rows: async (query, params = []) => db.query(query).all(...(params.map(bound) as never[])) as Row[], exec: async (statement) => void db.run(statement), close: async () => db.close() };
}

/**
 * `describe(\`${name} on ${store}\`)` once per store, `body` given the store under test, filled in before each test.
 * `env`: settings beyond the data folder and the database (the loader's defaults otherwise); `skip`: why the suite
 * cannot run here (another server it needs is missing), or null.
 */
export function describeEachStore(name: string, body: (s: StoreUnderTest) => void, { env = {}, skip = null }: { env?: Record<string, string>; skip?: string | null } = {}): void {
  for (const store of ["sqlite", "postgres"] as const) {
    describe.skipIf(skip !== null || (store === "postgres" && POSTGRES_MISSING !== null))(`${name} on ${store}`, () => {
      const s = { name: store, hub: store === "postgres" } as StoreUnderTest;
      let opened: Stores[] = [];
      let readers: { close: () => Promise<void> }[] = [];
      /** SQLite's: a handle of the test's own; PostgreSQL's: one connection for the describe, which also empties it. */
      let raw: Connection | undefined;
      let dir = "";
      afterAll(async () => void (await raw?.close()));
      // Out of a hook's 5 s: PostgreSQL's first start and its database take seconds on a busy machine.
      beforeEach(async () => {
        dir = mkdtempSync(join(tmpdir(), "contract-"));
        let url: string | undefined;
        if (store === "postgres") {
          url = await (database ??= databaseForThisFile("migrated"));
          await (raw ??= rawSql("", url)).exec(EMPTY_DATABASE);
        }
        // A generous deadline: these tests are about what the stores do, not how fast a busy machine answers.
        const settings = { DATA_DIR: dir, CONFIG_DIR: join(dir, "config"), STORE_TIMEOUT_MS: "60000", ...(url && hubSettings(url)), ...env };
        const config = loadConfig(settings);
        const archive = openArchiveStore(config.archive);
        // Beside: SQLite's checkpointer would start a worker for each test; its own tests are SQLite's (tests/unit).
        const stores = await openStores(config, archive, true);
        opened = [stores];
        readers = [];
        Object.assign(s, {
          config,
          stores,
          archive,
          archiveRoot: join(dir, "archive"),
          another: async (over: ArchiveStore = archive, own: Record<string, string> = {}) => {
            const other = await openStores(Object.keys(own).length === 0 ? config : loadConfig({ ...settings, ...own }), over, true);
            opened.push(other);
            return other;
          },
          rows: rowsOver(stores),
          view: async (query: string) => {
            const reader = url ? pgReader(url) : sqliteReader(config.databasePath);
            readers.push(reader);
            return reader.all(query);
          },
          sql: sqlOver(() => (raw ??= rawSql(config.databasePath, url))),
        });
        s.jobRows = jobRows(s.sql);
        s.stored = contractSql(s.sql);
      }, 60_000);
      afterEach(async () => {
        await Promise.all(readers.map((reader) => reader.close()));
        if (store === "sqlite") {
          await raw?.close();
          raw = undefined;
        }
        for (const stores of opened) await stores.close();
        rmSync(dir, { recursive: true, force: true });
      }, 60_000);
      body(s);
    });
  }
}
