/**
 * What the two dialects write differently inside a statement written once (statements.ts `read`): a statement
 * that needs one of these is a function of the dialect, `read((d) => `UPDATE … ${d.greatest("a", "b")} …`)`,
 * made once per dialect when the module loads. Everything else in a statement is the same text on both stores.
 *
 * What stays per dialect, and where (this list is the one place that names it):
 * - the drivers: opening a database (src/db/sqlite/open.ts, src/db/pg/open.ts), binding and decoding values and
 *   running a flow (sqlite.ts: synchronous, inside bun:sqlite's transaction; pg.ts: on postgres-js's
 *   connection or transaction); bytes (a Uint8Array parameter) bound as a blob on SQLite and as base64 text on
 *   PostgreSQL, which the statement decodes (`bytes`, `readBytes` below);
 * - SQLite's group commit and unsynced commits (src/db/sqlite/group-commit.ts, open.ts replayableCommit), its WAL
 *   checkpointer (src/db/sqlite/checkpointer.ts, checkpoint-worker.ts) and the retention sweep's incremental vacuum
 *   (src/db/retention/sqlite.ts; a hub's autovacuum needs no step): one process, one writer, one file;
 * - PostgreSQL's prepared-statement client (pg.ts `prepare: true`), LISTEN (src/db/jobs/pg.ts `listen`), the
 *   wake-ups a commit sends (statements.ts `notify`) and its advisory locks (statements.ts `lock`: the upload and
 *   caps locks of src/db/uploads/accept-chunk.ts; the housekeeping lock, src/db/pg/housekeeping-lock.ts, which
 *   src/db/retention/pg.ts sweeps under): N processes share one database, where SQLite's one process holds its
 *   writer alone and wakes its own poller. Both steps are no-ops on SQLite.
 * - what follows from one process against N: at start-up SQLite reclaims every running job, a hub only those whose
 *   lease expired (src/db/jobs/sqlite.ts, pg.ts pass the flag to the one flow, queue.ts), and at a clean stop SQLite
 *   releases its running jobs (queue.ts releaseRunning), a hub none (pg.ts releaseAtStop);
 * - what only one store can do in one round trip: PostgreSQL's one-statement paths, each embedding its rule's own
 *   texts (pgFragment) and held to the rule by a contract test that runs both on the same inputs: a single-chunk
 *   upload (src/db/uploads/pg.ts: the save's, the job's and the upload task's INSERTs;
 *   tests/contract/upload-fast-path.contract.test.ts), a drawn stage's record (src/db/stage-writes/pg.ts: the
 *   outputs' UPDATE and the archive row's upsert; tests/contract/drawn-fast-path.contract.test.ts) and lunabot's
 *   `/msr` PUT (src/db/owner/pg-msr-subscriptions.ts: every statement of the rule;
 *   tests/contract/msr-subscription-fast-path.contract.test.ts).
 */
export interface Primitives {
  /** The larger of two values (SQLite's two-argument max). */
  greatest(a: string, b: string): string;
  /** Appended to the SELECT a claim picks its row with: PostgreSQL's claimers each take another row without waiting; SQLite's one writer needs nothing. */
  skipLocked: string;
  /** Appended to a SELECT whose rows the transaction writes next: PostgreSQL locks them now; SQLite's immediate transaction holds the writer already. */
  forUpdate: string;
  /** A JSON list of objects (parameter `param`) as a table `alias` of text columns, for a FROM. */
  jsonRecords(param: string, alias: string, columns: readonly string[]): string;
  /** A JSON parameter (JSON text) where nothing types it (an INSERT … SELECT): PostgreSQL casts it to jsonb, SQLite stores the text. */
  json(param: string): string;
  /** Bytes written from a Uint8Array parameter: PostgreSQL's runner binds it as base64 text (a third less on the wire than bytea's hex), decoded here; SQLite binds the blob. */
  bytes(param: string): string;
  /** Bytes read from a column, as the `bytes` kind decodes them: base64 text on PostgreSQL (as above), the blob on SQLite. */
  readBytes(column: string): string;
  /** Whether the JSON list of strings `list` holds the text `value`. */
  jsonListHas(list: string, value: string): string;
  /** The JSON list of strings `list` without the text `value`. */
  jsonListWithout(list: string, value: string): string;
  /** How a DELETE names the rows its subquery picked: SQLite's rowid (no index to search), PostgreSQL's primary key `key` (it has no rowid). */
  rowKey<K extends string>(key: K): K | "rowid";
}

export const PG: Primitives = {
  greatest: (a, b) => `greatest(${a}, ${b})`,
  skipLocked: " FOR UPDATE SKIP LOCKED",
  forUpdate: " FOR UPDATE",
  json: (param) => `CAST(${param} AS jsonb)`,
  bytes: (param) => `decode(${param}, 'base64')`,
  readBytes: (column) => `encode(${column}, 'base64')`,
  jsonRecords: (param, alias, columns) => `jsonb_to_recordset(CAST(${param} AS jsonb)) AS ${alias}(${columns.map((column) => `${column} text`).join(", ")})`,
  jsonListHas: (list, value) => `${list} @> jsonb_build_array(CAST(${value} AS text))`,
  jsonListWithout: (list, value) => `${list} - CAST(${value} AS text)`,
  rowKey: (key) => key,
};

export const SQLITE: Primitives = {
  greatest: (a, b) => `max(${a}, ${b})`,
  skipLocked: "",
  forUpdate: "",
  json: (param) => param,
  bytes: (param) => param,
  readBytes: (column) => column,
  jsonRecords: (param, alias, columns) => `(SELECT ${columns.map((column) => `json_extract(value, '$.${column}') AS ${column}`).join(", ")} FROM json_each(${param})) AS ${alias}`,
  jsonListHas: (list, value) => `EXISTS (SELECT 1 FROM json_each(${list}) WHERE value = ${value})`,
  jsonListWithout: (list, value) => `(SELECT json_group_array(value) FROM json_each(${list}) WHERE value != ${value})`,
  rowKey: () => "rowid",
};
