/**
 * Every row of every table of a hub's schema, each column as text: what two paths that must write the same are
 * compared by. The tables and columns are read from the schema, so a column added there is compared unasked.
 */
import { afterAll, beforeAll } from "bun:test";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { databaseForThisFile } from "./postgres.ts";
import * as hubSchema from "../../src/db/pg/schema.ts";

/** Every table of the hub's schema with its columns, as the schema declares them. */
export const TABLES = (Object.values(hubSchema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => ({ name: getTableName(table), columns: Object.values(getTableColumns(table)).map((column) => column.name) }));

/** Every row of every table, each column as text (bytes as hex), in a stable order. */
export async function contents(db: PgDb): Promise<Record<string, string[][]>> {
  const tables: Record<string, string[][]> = {};
  for (const { name, columns } of TABLES) {
    const list = columns.map((column) => `"${column}"::text`).join(", ");
    const rows = await db.$client.unsafe(`SELECT ${list} FROM "${name}" ORDER BY ${columns.map((_, i) => i + 1).join(", ")}`).values();
    tables[name] = rows.map((row) => row.map((value) => (value === null ? "NULL" : String(value))));
  }
  return tables;
}

/**
 * Two migrated databases for a suite, open before its tests and closed after them: `fast` for the one-statement
 * path, `rule` for the rule it must write the same as. `seed` fills each alike first. Read them in a test.
 */
export function fastAndRule(seed?: (db: PgDb) => Promise<unknown>): { fast: PgDb; rule: PgDb } {
  const dbs = {} as { fast: PgDb; rule: PgDb };
  beforeAll(async () => {
    [dbs.fast, dbs.rule] = await Promise.all([databaseForThisFile("migrated").then((url) => openPostgres(url)), databaseForThisFile("migrated").then((url) => openPostgres(url))]);
    if (seed) for (const db of [dbs.fast, dbs.rule]) await seed(db);
  }, 60_000);
  afterAll(async () => {
    await dbs.fast?.$client.end();
    await dbs.rule?.$client.end();
  });
  return dbs;
}
