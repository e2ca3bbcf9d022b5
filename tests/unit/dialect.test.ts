/**
 * The dialect layer (src/db/dialect/): a flow written once is one transaction on both stores (a step that fails
 * undoes the steps before it), a statement's columns come back decoded alike, and a list parameter reads the same.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgStatements } from "../../src/db/dialect/pg.ts";
import { sqliteStatements } from "../../src/db/dialect/sqlite.ts";
import { read, run, type Statements } from "../../src/db/dialect/statements.ts";
import { openDatabase } from "../../src/db/open.ts";
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
