/**
 * The read models' small dialect layer: each read is one SQL text both stores run (PostgreSQL's `$n`
 * placeholders, which SQLite takes as `?n`; double-quoted camelCase aliases) and how to decode its columns, since
 * the drivers hand values over differently (SQLite: booleans as 0/1, JSON as text; postgres-js: bigints as
 * strings). The queries are written once over it (pages.ts, data-api.ts, …), each store gives a Reader.
 */

/** int: a number (PostgreSQL's bigint and count(*) arrive as strings); bool: SQLite's 0/1; json: SQLite's text. */
export type ColumnKind = "int" | "bool" | "json";

export interface Read<R> {
  sql: string;
  kinds: { [K in keyof R]?: ColumnKind };
}

export const read = <R>(sql: string, kinds: { [K in keyof R]?: ColumnKind } = {}): Read<R> => ({ sql, kinds });

export type Param = string | number | null;

export interface Reader {
  all<R>(read: Read<R>, params: Param[]): Promise<R[]>;
}

export async function first<R>(reader: Reader, query: Read<R>, params: Param[]): Promise<R | null> {
  return (await reader.all(query, params))[0] ?? null;
}

/** Decodes each row's columns with `decode` (the store's own conversions), in place. */
export function decodeRows<R>(rows: Record<string, unknown>[], kinds: Read<R>["kinds"], decode: (kind: ColumnKind, value: unknown) => unknown): R[] {
  const columns = Object.entries(kinds) as [string, ColumnKind][];
  for (const row of rows) for (const [column, kind] of columns) if (row[column] !== null && row[column] !== undefined) row[column] = decode(kind, row[column]);
  return rows as R[];
}

/** A list of constants as SQL literals (states, data types): never user input. */
export const literals = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");
