/** A table's row as a statement written once reads it: every column under its model name, decoded alike on both stores. */
import { getTableColumns, type Table } from "drizzle-orm";
import type { ColumnKind, Read } from "./statements.ts";

/** SQLite's column types whose values the stores hand over differently (drizzle's names). */
const KINDS: Record<string, ColumnKind> = { SQLiteBoolean: "bool", SQLiteInteger: "int", SQLiteTextJson: "json" };

/**
 * From SQLite's declaration of `table` (a column added to the schema comes with it), but the columns named in
 * `without`: `columns`, a select list (`alias.column AS "key"`, …), and `kinds`, booleans decoded from SQLite's 0/1,
 * JSON from SQLite's text (PostgreSQL's jsonb arrives parsed) and integers from PostgreSQL's bigint text.
 */
export function rowOf<R>(table: Table, alias: string, without: readonly string[] = []): { columns: string; kinds: Read<R>["kinds"] } {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => !without.includes(key));
  return {
    columns: columns.map(([key, column]) => `${alias}.${column.name} AS "${key}"`).join(", "),
    kinds: Object.fromEntries(columns.flatMap(([key, column]) => (KINDS[column.columnType] ? [[key, KINDS[column.columnType]]] : []))) as Read<R>["kinds"],
  };
}
