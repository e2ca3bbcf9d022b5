/** The rules written once run synchronously in SQLite's transaction body and awaited on PostgreSQL's (src/db/dialect/steps.ts). */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { sqliteRunner } from "../../src/db/dialect/sqlite-runner.ts";
import { runSteps, runStepsAsync, step, type Maybe, type Steps } from "../../src/db/dialect/steps.ts";

const dir = mkdtempSync(join(tmpdir(), "mysekai-steps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function* twoStatements(first: Maybe<number>, second: () => Maybe<number>): Steps<number> {
  const a = yield* step(first);
  const b = yield* step(second());
  return a + b;
}

test("a rule's results come back as values, synchronously or awaited", async () => {
  expect(runSteps(twoStatements(1, () => 2))).toBe(3);
  expect(await runStepsAsync(twoStatements(Promise.resolve(1), () => Promise.resolve(2)))).toBe(3);
  expect(await runStepsAsync(twoStatements(1, () => 2))).toBe(3);
});

test("an async statement inside SQLite's synchronous transaction throws, and what the rule wrote before it rolls back", () => {
  const db = openDatabase(join(dir, "steps.sqlite"));
  const count = () => db.all<{ n: number }>(sql`SELECT count(*) AS n FROM settings`)[0]!.n;
  function* writeThenAwait(run: ReturnType<typeof sqliteRunner>): Steps<void> {
    yield* step(run.run(sql`INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', 1)`));
    yield* step(Promise.resolve(0));
  }
  expect(() => db.transaction((tx) => runSteps(writeThenAwait(sqliteRunner(tx))))).toThrow("an async statement in a synchronous transaction");
  expect(count()).toBe(0);
  db.$client.close();
});
