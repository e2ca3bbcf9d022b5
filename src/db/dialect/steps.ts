/**
 * Orchestration written once over both stores. A store's rule (accept a chunk, record a stage's writes) is a
 * generator that yields each statement's result as its dialect hands it over, a value or a promise, and gets the
 * value back: SQLite's runner drives it synchronously inside its transaction body (drizzle on bun:sqlite loses
 * atomicity with an async body, so a promise there is a bug and throws), PostgreSQL's awaits each one.
 *
 *   const task = yield* step(statements.openTask(...));
 */
import type { SQL } from "drizzle-orm";
import type { Flow } from "./statements.ts";

export type Maybe<T> = T | Promise<T>;
export type Steps<T> = Generator<unknown, T, unknown>;

/** One statement's result inside a rule: `yield* step(x)` is the value of `x`, awaited where the store is async. */
export function* step<T>(result: Maybe<T>): Steps<T> {
  return (yield result) as T;
}

/**
 * Drives a generator to its end, handing back for each yielded value what `resolve` makes of it: the one loop under
 * both forms of a rule written once (a rule yielding results here, a flow yielding statements in statements.ts).
 */
export function drive<Y, R, T>(steps: Generator<Y, T, R>, resolve: (yielded: Y) => R): T {
  for (let next = steps.next(); ; next = steps.next(resolve(next.value))) if (next.done) return next.value;
}

/** The same, awaiting each value `resolve` makes (an async store, one statement at a time). */
export async function driveAsync<Y, R, T>(steps: Generator<Y, T, R>, resolve: (yielded: Y) => Maybe<R>): Promise<T> {
  for (let next = steps.next(); ; next = steps.next(await resolve(next.value))) if (next.done) return next.value;
}

const synchronous = (value: unknown) => {
  if (value instanceof Promise) throw new Error("an async statement in a synchronous transaction");
  return value;
};

/** Runs a rule inside a synchronous transaction body (SQLite). */
export const runSteps = <T>(steps: Steps<T>): T => drive(steps, synchronous);

/** Runs a rule over an async store (PostgreSQL), one statement at a time. */
export const runStepsAsync = <T>(steps: Steps<T>): Promise<T> => driveAsync(steps, (value) => value);

/**
 * How one dialect runs a statement written once (plain SQL both dialects read alike): its rows, as the driver
 * hands them (PostgreSQL's bigint as text: the statements cast counts to integer, and callers read times with Number).
 */
export interface SqlRunner {
  all<T>(query: SQL): Maybe<T[]>;
  run(query: SQL): Maybe<unknown>;
  /** A flow (statements.ts) on the same connection. */
  flow<T>(flow: Flow<T>): Maybe<T>;
}
