/** PostgreSQL's side of the dialect layer (statements.ts): its decoding, its locks, its asynchronous runner. */
import { sql as drizzleSql, type SQL } from "drizzle-orm";
import type postgres from "postgres";
import type { PgDb, PgTx } from "../pg/open.ts";
import { decodeRows, driveAsync, TOKEN, type ColumnKind, type Flow, type Param, type Statements, type Step } from "./statements.ts";

/** bigint and count(*) arrive as strings, bytes as base64 text (primitives.ts readBytes); booleans and jsonb as they are. */
const decode = (kind: ColumnKind, value: unknown) => (kind === "int" ? Number(value) : kind === "bytes" ? Buffer.from(value as string, "base64") : value);
/** Bytes go as base64 text, which the statement decodes (primitives.ts bytes). */
const bind = (param: Param) => (param instanceof Uint8Array ? Buffer.from(param.buffer, param.byteOffset, param.byteLength).toString("base64") : param);

type Connection = postgres.Sql | postgres.TransactionSql;

/** The postgres-js client under a drizzle handle or transaction (drizzle's session, internal to it, holds it). */
const connectionOf = (handle: PgDb | PgTx) => (handle as unknown as { session: { client: Connection } }).session.client;

async function execute(sql: Connection, step: Step): Promise<Record<string, unknown>[]> {
  if ("lock" in step) {
    const [scope, key] = step.lock;
    if (key === undefined) await sql`SELECT pg_advisory_xact_lock(${scope}::bigint)`;
    else await (typeof scope === "number" ? sql`SELECT pg_advisory_xact_lock(${scope}::int, hashtext(${key}))` : sql`SELECT pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
    return [];
  }
  if ("notify" in step) {
    await sql`SELECT pg_notify(${step.notify}, '')`;
    return [];
  }
  const rows = await sql.unsafe(step.query.sql, step.params.map(bind) as postgres.ParameterOrJSON<never>[], { prepare: true });
  return decodeRows(Array.from(rows), step.query.kinds, decode);
}

/**
 * Runs a flow on the handle's connection, one statement at a time: inside the caller's transaction when `handle`
 * is one, else each statement committed on its own (for flows whose steps need no transaction around them).
 */
export function pgFlow<T>(handle: PgDb | PgTx, flow: Flow<T>): Promise<T> {
  const sql = connectionOf(handle);
  const inTransaction = "rollback" in handle; // drizzle's transaction, not the database
  return driveAsync(flow, (step) => {
    // A transaction-scoped lock taken outside a transaction is released at once: it would serialise nothing.
    if ("lock" in step && !inTransaction) throw new Error("a lock step outside a transaction");
    return execute(sql, step);
  });
}

export function pgStatements(db: PgDb): Statements {
  return {
    all: async (query, params) => (await execute(db.$client, { query: query as never, params })) as never,
    transaction: async (flow) => (await db.$client.begin((tx) => driveAsync(flow(), (step) => execute(tx, step)))) as never,
  };
}

/**
 * A statement written once as a drizzle fragment, its `$n` bound to `params`: for a PostgreSQL one-statement path
 * that embeds the rule's own statement (a CTE) rather than a copy of it.
 */
export function pgFragment(text: string, params: Param[]): SQL {
  const chunks: SQL[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [token, list, n] = match;
    if (list === undefined && n === undefined) continue; // a quoted literal or identifier
    const param = drizzleSql`${bind(params[Number(list ?? n) - 1]!)}`;
    chunks.push(drizzleSql.raw(text.slice(at, match.index)), list === undefined ? param : drizzleSql`= ANY(${param})`);
    at = match.index + token.length;
  }
  chunks.push(drizzleSql.raw(text.slice(at)));
  return drizzleSql.join(chunks);
}
