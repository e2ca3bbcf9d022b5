/**
 * What the two dialects write differently inside a statement written once (statements.ts `read`): a statement
 * that needs one of these is a function of the dialect, `read((d) => `UPDATE … ${d.greatest("a", "b")} …`)`,
 * made once per dialect when the module loads. Everything else in a statement is the same text on both stores.
 *
 * What stays per dialect, and where (this list is the one place that names it):
 * - the drivers: opening a database (src/db/sqlite/open.ts, src/db/pg/open.ts), binding and decoding values and
 *   running a flow (sqlite.ts: synchronous, inside bun:sqlite's transaction; pg.ts: on postgres-js's
 *   connection or transaction);
 * - SQLite's group commit and unsynced commits (src/db/sqlite/group-commit.ts, open.ts replayableCommit), its WAL
 *   checkpointer (src/db/sqlite/checkpointer.ts, checkpoint-worker.ts) and the retention sweep's incremental vacuum
 *   (src/db/retention/sqlite.ts; a hub's autovacuum needs no step): one process, one writer, one file;
 * - PostgreSQL's prepared-statement client (pg.ts `prepare: true`), LISTEN (src/db/jobs/pg.ts `listen`), the
 *   wake-ups a commit sends (statements.ts `notify`) and its advisory locks (statements.ts `lock`; the upload and
 *   housekeeping locks of src/db/uploads/pg.ts, src/db/pg/housekeeping-lock.ts, which src/db/retention/pg.ts
 *   sweeps under): N processes share one database, where SQLite's one process holds its writer alone and wakes its
 *   own poller. Both steps are no-ops on SQLite.
 * - what follows from one process against N: at start-up SQLite reclaims every running job, a hub only those whose
 *   lease expired (src/db/jobs/sqlite.ts, pg.ts pass the flag to the one flow, queue.ts), and at a clean stop SQLite
 *   releases its running jobs (queue.ts releaseRunning), a hub none (pg.ts releaseAtStop);
 * - what only one store can do in one round trip: PostgreSQL's one-statement paths (a single-chunk upload,
 *   src/db/uploads/pg.ts, which embeds the job rule's own INSERT and is held to the chunk's rule by
 *   tests/contract/upload-fast-path.contract.test.ts; a drawn stage's record, src/db/stage-writes/pg.ts).
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
  jsonRecords: (param, alias, columns) => `jsonb_to_recordset(CAST(${param} AS jsonb)) AS ${alias}(${columns.map((column) => `${column} text`).join(", ")})`,
  jsonListHas: (list, value) => `${list} @> jsonb_build_array(CAST(${value} AS text))`,
  jsonListWithout: (list, value) => `${list} - CAST(${value} AS text)`,
  rowKey: (key) => key,
};

export const SQLITE: Primitives = {
  greatest: (a, b) => `max(${a}, ${b})`,
  skipLocked: "",
  forUpdate: "",
  jsonRecords: (param, alias, columns) => `(SELECT ${columns.map((column) => `json_extract(value, '$.${column}') AS ${column}`).join(", ")} FROM json_each(${param})) AS ${alias}`,
  jsonListHas: (list, value) => `EXISTS (SELECT 1 FROM json_each(${list}) WHERE value = ${value})`,
  jsonListWithout: (list, value) => `(SELECT json_group_array(value) FROM json_each(${list}) WHERE value != ${value})`,
  rowKey: () => "rowid",
};
