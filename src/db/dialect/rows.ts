/** A table's row as a statement written once reads it: every column under its model name, decoded alike on both stores. */
import { getTableColumns, type Table } from "drizzle-orm";
import type { ColumnKind, Read } from "./statements.ts";

/**
 * From SQLite's declaration of `table` (a column added to the schema comes with it): `columns`, a select list
 * (`alias.column AS "key"`, …), and `kinds`, booleans decoded from SQLite's 0/1 and integers from PostgreSQL's
 * bigint text.
 */
export function rowOf<R>(table: Table, alias: string): { columns: string; kinds: Read<R>["kinds"] } {
  const columns = Object.entries(getTableColumns(table));
  const kind = (type: string): ColumnKind | null => (type === "SQLiteBoolean" ? "bool" : type === "SQLiteInteger" ? "int" : null);
  return {
    columns: columns.map(([key, column]) => `${alias}.${column.name} AS "${key}"`).join(", "),
    kinds: Object.fromEntries(columns.flatMap(([key, column]) => (kind(column.columnType) ? [[key, kind(column.columnType)]] : []))) as Read<R>["kinds"],
  };
}
