/** N processes may start at once on one PostgreSQL: the migration runs once, under the advisory lock, and all find the schema. */
import { describe, expect, test } from "bun:test";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import journal from "../../drizzle/pg/meta/_journal.json";
import { openPostgres } from "../../src/db/pg/open.ts";
import * as schema from "../../src/db/pg/schema.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";

const tableNames = Object.values(schema).filter((value) => value instanceof PgTable).map((table) => getTableConfig(table).name).sort();

describe.skipIf(POSTGRES_MISSING !== null)("openPostgres", () => {
  // One asks for a single connection: the lock's connection must not starve the migration's.
  test("three clients opening one fresh database at once: one migration, every table there for each", async () => {
    const url = await databaseForThisFile("empty");
    const opened = await Promise.all([1, 2, 3].map((maxConnections) => openPostgres(url, { maxConnections })));
    try {
      for (const db of opened) {
        const rows = await db.$client<{ table_name: string }[]>`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
        expect(rows.map((row) => row.table_name).sort()).toEqual(tableNames);
      }
      const applied = await opened[0]!.$client`SELECT hash FROM drizzle.__drizzle_migrations`;
      expect(applied.length).toBe(journal.entries.length);
    } finally {
      await Promise.all(opened.map((db) => db.$client.end()));
    }
  }, 20_000);
});
