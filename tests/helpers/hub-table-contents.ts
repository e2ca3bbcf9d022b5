/**
 * Every row of every table of a hub's schema, each column as text: what two paths that must write the same are
 * compared by. The tables and columns are read from the schema, so a column added there is compared unasked.
 */
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { PgDb } from "../../src/db/pg/open.ts";
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
