/** A table's row as a statement written once reads it: every column under its model name, decoded alike on both stores. */
import { getTableColumns, type Table } from "drizzle-orm";
import type { Primitives } from "./primitives.ts";
import type { ColumnKind, Read } from "./statements.ts";

/** SQLite's column types whose values the stores hand over differently (drizzle's names). */
const KINDS: Record<string, ColumnKind> = { SQLiteBoolean: "bool", SQLiteInteger: "int", SQLiteTextJson: "json" };

/**
 * From SQLite's declaration of `table` (a column added to the schema comes with it), but the columns named in
 * `without`: `columns`, a select list (`alias.column AS "key"`, …), and `kinds`, booleans decoded from SQLite's 0/1,
 * integers from PostgreSQL's bigint text, JSON from SQLite's text (PostgreSQL's jsonb arrives parsed), bytes as the
 * dialect's `readBytes` hands them over (a table with a blob column is read with its dialect `d`).
 */
export function rowOf<R>(table: Table, alias: string, { d, without = [] }: { d?: Primitives; without?: readonly string[] } = {}): { columns: string; kinds: Read<R>["kinds"] } {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => !without.includes(key));
  const blob = (column: (typeof columns)[number][1]) => column.getSQLType() === "blob";
  const kind = (column: (typeof columns)[number][1]): ColumnKind | undefined => (blob(column) ? "bytes" : KINDS[column.columnType]);
  return {
    columns: columns.map(([key, column]) => `${blob(column) && d ? d.readBytes(`${alias}.${column.name}`) : `${alias}.${column.name}`} AS "${key}"`).join(", "),
    kinds: Object.fromEntries(columns.flatMap(([key, column]) => (kind(column) ? [[key, kind(column)]] : []))) as Read<R>["kinds"],
  };
}
