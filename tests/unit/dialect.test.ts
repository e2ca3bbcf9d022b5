/**
 * The dialect layer (src/db/dialect/): a flow written once is one transaction on both stores (a step that fails
 * undoes the steps before it), a statement's columns come back decoded alike, and a list parameter reads the same.
 * sqliteText: PostgreSQL's `$n` and `= ANY($n)` become SQLite's `?n` and a JSON list, but not inside a quoted literal
 * or identifier, where `$1` is text.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgStatements } from "../../src/db/dialect/pg.ts";
import { sqliteStatements } from "../../src/db/dialect/sqlite.ts";
import { read, run, sqliteText, type Statements } from "../../src/db/dialect/statements.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";

const PUT = read(`INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)`);
const SETTINGS = read<{ key: string; value: string; updatedAt: number }>(`SELECT key, value, updated_at AS "updatedAt" FROM settings WHERE key = ANY($1) ORDER BY key`, { updatedAt: "int" });
const TOKENS = read<{ name: string; players: string[] | null }>(`SELECT name, players FROM api_tokens ORDER BY name`, { players: "json" });
const ADD_TOKEN = read(`INSERT INTO api_tokens (name, token_sha256, players, created_at) VALUES ($1, $2, $3, $4)`);

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const kinds: { name: string; skip: boolean; open: () => Promise<Statements> }[] = [
  {
    name: "sqlite",
    skip: false,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "mysk-dialect-"));
      const db = openDatabase(join(dir, "ingest.sqlite"));
      closers.push(async () => {
        db.$client.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return sqliteStatements(db);
    },
  },
  {
    name: "postgres",
    skip: POSTGRES_MISSING !== null,
    open: async () => {
      const db = await openPostgres(await databaseForThisFile("migrated"));
      closers.push(() => db.$client.end());
      return pgStatements(db);
    },
  },
];

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`dialect layer on ${kind.name}`, () => {
    test("a flow is one transaction: a step that throws undoes the steps before it, a flow that ends commits them", async () => {
      const db = await kind.open();
      const failing = db.transaction(function* () {
        yield* run(PUT, ["a", "1", 10]);
        yield* run(PUT, ["a", "2", 20]); // the key is taken: the second insert fails
      });
      await expect(failing).rejects.toThrow();
      expect(await db.all(SETTINGS, [["a"]])).toEqual([]);
      const value = await db.transaction(function* () {
        yield* run(PUT, ["b", "1", 10]);
        yield* run(PUT, ["c", "2", 2 ** 40]);
        return (yield* run(SETTINGS, [["b", "c"]])).length;
      });
      expect(value).toBe(2);
      expect(await db.all(SETTINGS, [["b", "c", "missing"]])).toEqual([
        { key: "b", value: "1", updatedAt: 10 },
        { key: "c", value: "2", updatedAt: 2 ** 40 },
      ]);
    });

    test("JSON columns come back decoded, NULL as null", async () => {
      const db = await kind.open();
      await db.all(ADD_TOKEN, ["all", "sha-all", null, 1]);
      await db.all(ADD_TOKEN, ["some", "sha-some", JSON.stringify(["7488393821744390161"]), 1]);
      expect(await db.all(TOKENS, [])).toEqual([
        { name: "all", players: null },
        { name: "some", players: ["7488393821744390161"] },
      ]);
    });
  });
}

test("on SQLite a flow beside another process's write waits its turn, never 'database is locked' (the owner CLI beside the service)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mysk-dialect-lock-"));
  const path = join(dir, "ingest.sqlite");
  const db = openDatabase(path);
  closers.push(async () => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Another process holds SQLite's write lock for 300 ms, then commits a row: this flow's snapshot, if it took one
  // before that commit, could not write after it (SQLITE_BUSY at once, busy_timeout or not).
  const writer = Bun.spawn(
    [process.execPath, "-e", `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(path)}); d.exec("PRAGMA busy_timeout = 5000"); d.exec("BEGIN IMMEDIATE"); d.run("INSERT INTO settings (key, value, updated_at) VALUES ('other', 'x', 1)"); console.log("locked"); Bun.sleepSync(300); d.exec("COMMIT");`],
    { stdout: "pipe", stderr: "inherit" },
  );
  const reader = writer.stdout.getReader();
  for (let text = ""; !text.includes("locked"); ) text += new TextDecoder().decode((await reader.read()).value);
  const statements = sqliteStatements(db);
  const count = read<{ n: number }>(`SELECT count(*) AS n FROM settings`, { n: "int" });
  const flow = function* () {
    const n = ((yield* run(count, [])) as { n: number }[])[0]!.n;
    yield* run(PUT, [`mine-${n}`, "y", 2]);
    return n;
  };
  await statements.transaction(flow);
  expect(await writer.exited).toBe(0);
  expect((await statements.all(SETTINGS, [["other", "mine-1"]])).map((row) => row.key)).toEqual(["mine-1", "other"]);
});

test("placeholders become SQLite's numbered parameters; `= ANY($n)` reads a JSON list", () => {
  expect(sqliteText(`SELECT a FROM t WHERE b = $1 AND c = ANY($2) AND d > $10`)).toBe(`SELECT a FROM t WHERE b = ?1 AND c IN (SELECT value FROM json_each(?2)) AND d > ?10`);
});

test("a `$n` inside a string literal or a quoted identifier is left as written, doubled quotes included", () => {
  expect(sqliteText(`SELECT '$1' AS "x$2", 'it''s $3' || $1, "a""$4" = ANY($2)`)).toBe(`SELECT '$1' AS "x$2", 'it''s $3' || ?1, "a""$4" = ANY($2)`.replace("= ANY($2)", "IN (SELECT value FROM json_each(?2))"));
});

test("SQLite runs such a statement with the literal intact", () => {
  const db = new Database(":memory:");
  const query = read<{ literal: string; bound: string }>(`SELECT 'costs $1, or = ANY($2)' AS "literal", $1 AS "bound"`);
  expect(db.query(query.sqlite).get("five")).toEqual({ literal: "costs $1, or = ANY($2)", bound: "five" });
  db.close();
});
