/**
 * The stores' small dialect layer (issue 37): a statement is one SQL text both stores run (PostgreSQL's `$n`
 * placeholders, which SQLite takes as `?n`; `= ANY($n)` over an array, which SQLite reads as a JSON list;
 * double-quoted camelCase aliases) with how to decode its columns, since the drivers hand values over differently
 * (SQLite: booleans as 0/1, JSON as text; postgres-js: bigints as strings). A flow of several statements is a
 * generator written once: SQLite's runner drives it synchronously inside one transaction (an async body would
 * lose its atomicity), PostgreSQL's asynchronously on one connection (sqlite.ts, pg.ts).
 */
import { PG, SQLITE, type Primitives } from "./primitives.ts";

/** int: a number (PostgreSQL's bigint and count(*) arrive as strings); bool: SQLite's 0/1; json: SQLite's text; bytes: read through the dialect's readBytes. */
export type ColumnKind = "int" | "bool" | "json" | "bytes";

export interface Read<R> {
  /** PostgreSQL's text. */
  sql: string;
  /** SQLite's text (sqliteText of the statement written for SQLite's primitives), made once. */
  sqlite: string;
  kinds: { [K in keyof R]?: ColumnKind };
}

/** A statement: one text, or one text over the dialect's primitives (primitives.ts). */
export const read = <R>(sql: string | ((d: Primitives) => string), kinds: { [K in keyof R]?: ColumnKind } = {}): Read<R> =>
  typeof sql === "string" ? { sql, sqlite: sqliteText(sql), kinds } : { sql: sql(PG), sqlite: sqliteText(sql(SQLITE)), kinds };

/** A quoted literal or identifier (left as it is), an `= ANY($n)` or a `$n`. */
export const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|= ANY\(\$(\d+)\)|\$(\d+)/g;
/**
 * PostgreSQL's `$n` as SQLite's `?n` (the same numbered parameter); `= ANY($n)` over the JSON list SQLite is given.
 * Quoted literals and identifiers are left as they are: a `$1` in a string is text.
 */
export const sqliteText = (sql: string) => sql.replace(TOKEN, (token, list?: string, n?: string) => (list ? `IN (SELECT value FROM json_each(?${list}))` : n ? `?${n}` : token));

/** JSON columns take their value as JSON text; arrays are for `= ANY($n)`; bytes are written through the dialect's `bytes` (primitives.ts). */
export type Param = string | number | boolean | null | Uint8Array | readonly (string | number)[];

/**
 * One step of a flow: a statement; a lock on (scope, key) until the transaction ends; a notification to other
 * processes on commit. The last two are PostgreSQL's: SQLite's one process holds its writer alone and wakes its own.
 */
export type Step = { query: Read<unknown>; params: Param[] } | { lock: [scope: LockScope, key?: string] } | { notify: string };
/** A lock's namespace: a name, or a number a hub's processes of every version have locked on (it must never change). */
type LockScope = string | number;
export type Flow<T> = Generator<Step, T, Record<string, unknown>[]>;

/** Drives a flow to its end, handing back for each step what `resolve` makes of it (SQLite's runner: synchronously). */
export function drive<T>(flow: Flow<T>, resolve: (step: Step) => Record<string, unknown>[]): T {
  for (let next = flow.next(); ; next = flow.next(resolve(next.value))) if (next.done) return next.value;
}

/** The same, awaiting each step (PostgreSQL's runner, one statement at a time). */
export async function driveAsync<T>(flow: Flow<T>, resolve: (step: Step) => Promise<Record<string, unknown>[]>): Promise<T> {
  for (let next = flow.next(); ; next = flow.next(await resolve(next.value))) if (next.done) return next.value;
}

/** Within a flow: `const rows = yield* run(QUERY, params)`. */
export function* run<R>(query: Read<R>, params: Param[]): Generator<Step, R[], Record<string, unknown>[]> {
  return (yield { query: query as Read<unknown>, params }) as R[];
}

/**
 * Within a flow: serializes the flows of one key (two processes adding rules for one player count each other's),
 * or of one number alone (PostgreSQL's one-bigint lock: another key space than a number scope with a key).
 */
export function lock(scope: number): Generator<Step, void, Record<string, unknown>[]>;
export function lock(scope: LockScope, key: string): Generator<Step, void, Record<string, unknown>[]>;
export function* lock(scope: LockScope, key?: string): Generator<Step, void, Record<string, unknown>[]> {
  yield { lock: [scope, key] };
}

/** Within a flow: other processes listening on `channel` hear of this transaction once it commits. */
export function* notify(channel: string): Generator<Step, void, Record<string, unknown>[]> {
  yield { notify: channel };
}

export interface Reader {
  all<R>(read: Read<R>, params: Param[]): Promise<R[]>;
}

/** A store's statements: single reads and writes (each its own transaction), and flows in one transaction. */
export interface Statements extends Reader {
  transaction<T>(flow: () => Flow<T>): Promise<T>;
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
