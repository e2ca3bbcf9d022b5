/**
 * The two owner stores side by side for the contract suite (tests/unit/owner-store.contract.test.ts): each with a
 * second store on connections of its own (a second process of a hub), and a raw look at the rows.
 */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type PreparedFixtureKind } from "./store-handles.ts";
import { join } from "node:path";
import { sqliteOwnerStore } from "../../src/db/owner/sqlite.ts";
import { pgOwnerStore } from "../../src/db/owner/pg.ts";
import type { OwnerStore } from "../../src/store/ports/owner.ts";
import { TEST_SEAL } from "./link-tokens.ts";
import type { TokenSeal } from "../../src/link-key.ts";

/** The owner tables, emptied for each fixture on PostgreSQL. */
const TABLES = ["owner_sessions", "login_failures", "settings", "players", "api_tokens", "public_players", "data_webhooks"] as const;
type Table = (typeof TABLES)[number];

export interface OwnerStoreFixture {
  store: OwnerStore;
  /** Another store on connections of its own, as a second process has (with the same link key unless `seal` says). */
  another: (seal?: TokenSeal) => Promise<OwnerStore>;
  /** A raw write, as an older version or a copy of the database would make it. */
  exec: (sql: string) => Promise<void>;
  /** Every row of `table`, as plain objects (column names as in SQL). */
  rows: (table: Table) => Promise<Record<string, unknown>[]>;
  /** `count` peers with one failure each, the i-th at `at + i` (faster than `count` records). */
  seedLoginFailures: (count: number, at: number) => Promise<void>;
  close: () => Promise<void>;
}

export type OwnerStoreKind = PreparedFixtureKind<OwnerStoreFixture>;

export const sqliteOwnerStores: OwnerStoreKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const { db, another: openAnother, close } = sqliteHandles("owner-store-");
    return {
      store: sqliteOwnerStore(db, TEST_SEAL),
      another: async (seal = TEST_SEAL) => sqliteOwnerStore(await openAnother(), seal),
      exec: async (sql) => void db.$client.run(sql),
      rows: async (table) => db.$client.query(`SELECT * FROM ${table}`).all() as Record<string, unknown>[],
      seedLoginFailures: async (count, at) => {
        const insert = db.$client.query("INSERT INTO login_failures (peer, failures, last_failure) VALUES (?, 1, ?)");
        db.$client.transaction(() => {
          for (let i = 0; i < count; i++) insert.run(`p${i}`, at + i);
        })();
      },
      close,
    };
  },
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();

export const postgresOwnerStores: OwnerStoreKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const { db, another: openAnother, close } = await pgHandles(await pgDatabase(), `${TABLES.join(", ")} RESTART IDENTITY`);
    return {
      store: pgOwnerStore(db, TEST_SEAL),
      another: async (seal = TEST_SEAL) => pgOwnerStore(await openAnother(), seal),
      exec: async (sql) => void (await db.$client.unsafe(sql)),
      // As JSON, so that bigint times come back as numbers, as SQLite's do.
      rows: async (table) => (await db.$client.unsafe(`SELECT row_to_json(t) AS row FROM ${table} t`)).map((r) => r.row as Record<string, unknown>),
      seedLoginFailures: async (count, at) =>
        void (await db.$client`INSERT INTO login_failures (peer, failures, last_failure) SELECT 'p' || i, 1, ${at}::bigint + i FROM generate_series(0, ${count - 1}) AS i`),
      close,
    };
  },
};
