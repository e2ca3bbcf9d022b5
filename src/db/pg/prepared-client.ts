/**
 * drizzle runs its postgres.js queries unnamed (`prepare: false` unless a query is given a name), and postgres.js
 * sends an unnamed query with parameters in two turns: Parse + Describe, wait for the parameter types, then Bind +
 * Execute. Every statement of a hub thus cost two network round trips. As named statements, each connection
 * describes a statement's text once and afterwards sends Bind + Execute in one turn.
 *
 * The cache is per connection and keyed by the statement's text and its parameters' types: drizzle's statements are
 * a fixed set of shapes (a list's length makes one more), and postgres.js renews each connection within an hour
 * (max_lifetime), which drops its statements on both sides. A statement whose plan went stale (a migration by
 * another process) is described again by postgres.js.
 */
import type postgres from "postgres";

type Unsafe = postgres.Sql["unsafe"];

/** `client` whose parameterized queries, its transactions' and their savepoints' included, are named statements. */
export function preparedStatements<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === "unsafe") {
        const unsafe: Unsafe = (query, args, options) =>
          Array.isArray(args) && args.length > 0 ? target.unsafe(query, args, { ...options, prepare: true }) : target.unsafe(query, args as never, options);
        return unsafe;
      }
      if (key === "begin" || key === "savepoint") {
        const open = Reflect.get(target, key, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return open(...args, (tx: postgres.TransactionSql) => body(preparedStatements(tx)));
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}
