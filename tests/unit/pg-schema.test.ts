/** The hub's PostgreSQL schema holds what the SQLite one does: same tables, columns, nullability, keys and indexes, and its own few. */
import { expect, test } from "bun:test";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";

interface Shape {
  columns: Record<string, { notNull: boolean; primary: boolean; hasDefault: boolean }>;
  indexes: string[];
  foreignKeys: string[];
}

function shapeOf(config: ReturnType<typeof pgTableConfig> | ReturnType<typeof sqliteTableConfig>): Shape {
  const columns: Shape["columns"] = {};
  for (const column of config.columns) columns[column.name] = { notNull: column.notNull, primary: column.primary, hasDefault: column.hasDefault && !column.primary };
  const indexes = config.indexes.map((index) => `${index.config.name}${index.config.unique ? " unique" : ""}(${index.config.columns.map((c) => ("name" in c ? c.name : "?")).join(",")})`).sort();
  const foreignKeys = config.foreignKeys.map((fk) => {
    const ref = fk.reference();
    return `${ref.columns.map((c) => c.name).join(",")}→${ref.foreignColumns.map((c) => c.name).join(",")} ${fk.onDelete ?? ""}`;
  }).sort();
  return { columns, indexes, foreignKeys };
}

/** Tables only a hub has: what one process keeps in memory beside SQLite (the data API's rate counts). */
const HUB_ONLY = ["apiRateWindows"];

const tables = <T>(module: Record<string, unknown>, kind: abstract new (...args: never[]) => T) =>
  Object.fromEntries(Object.entries(module).filter(([, value]) => value instanceof kind)) as Record<string, T>;

test("every SQLite table has its PostgreSQL twin with the same columns, keys and indexes", () => {
  const sqliteTables = tables(sqlite, SQLiteTable);
  const pgTables = tables(pg, PgTable);
  expect(Object.keys(pgTables).sort()).toEqual([...Object.keys(sqliteTables), ...HUB_ONLY].sort());
  for (const [name, table] of Object.entries(sqliteTables)) {
    const expected = sqliteTableConfig(table);
    const actual = pgTableConfig(pgTables[name]!);
    expect({ table: actual.name, ...shapeOf(actual) }).toEqual({ table: expected.name, ...shapeOf(expected) });
  }
});
