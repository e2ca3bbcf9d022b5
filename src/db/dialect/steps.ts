/**
 * Orchestration written once over both stores. A store's rule (accept a chunk, record a stage's writes) is a
 * generator that yields each statement's result as its dialect hands it over, a value or a promise, and gets the
 * value back: SQLite's runner drives it synchronously inside its transaction body (drizzle on bun:sqlite loses
 * atomicity with an async body, so a promise there is a bug and throws), PostgreSQL's awaits each one.
 *
 *   const task = yield* step(statements.openTask(...));
 */
import type { SQL } from "drizzle-orm";

export type Maybe<T> = T | Promise<T>;
export type Steps<T> = Generator<unknown, T, unknown>;

/** One statement's result inside a rule: `yield* step(x)` is the value of `x`, awaited where the store is async. */
export function* step<T>(result: Maybe<T>): Steps<T> {
  return (yield result) as T;
}

/** Runs a rule inside a synchronous transaction body (SQLite). */
export function runSteps<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error("an async statement in a synchronous transaction");
    next = steps.next(next.value);
  }
  return next.value;
}

/** Runs a rule over an async store (PostgreSQL), one statement at a time. */
export async function runStepsAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await next.value);
  return next.value;
}

/**
 * How one dialect runs a statement written once (plain SQL both dialects read alike): its rows, as the driver
 * hands them (PostgreSQL's bigint as text: the statements cast counts to integer, and callers read times with Number).
 */
export interface SqlRunner {
  all<T>(query: SQL): Maybe<T[]>;
  run(query: SQL): Maybe<unknown>;
}
