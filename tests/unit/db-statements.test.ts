/** drizzle's statements are compiled once per SQL text and shared, and hot queries prepared once per connection (src/db/sqlite/open.ts). */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { openDatabase, prepared, type Db, type Tx } from "../../src/db/sqlite/open.ts";
import { saves } from "../../src/db/schema.ts";
import { saveWithSha, storeSaveOnce } from "../../src/db/saves/sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "mysekai-statements-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the same SQL text reuses one compiled statement; interleaved calls still get their own rows", () => {
  const db = openDatabase(join(dir, "ingest.sqlite"));
  expect(db.$client.prepare("SELECT ?1 AS v")).toBe(db.$client.prepare("SELECT ?1 AS v"));

  const stored = ["7488393821744390161", "7488393821744390162"].map((playerId, i) =>
    db.transaction((tx) => storeSaveOnce(tx, { encrypted: new Uint8Array([i, 1, 2]), playerId, source: "upload", receivedAt: i })),
  );
  const shaOf = (id: number) => db.select({ sha256: saves.sha256 }).from(saves).where(eq(saves.id, id)).get()!.sha256;
  for (let round = 0; round < 3; round++) {
    for (const [i, save] of stored.entries()) {
      const found = db.transaction((tx) => saveWithSha(tx, shaOf(save.saveId)));
      expect(found).toEqual({ id: save.saveId, playerId: `748839382174439016${i + 1}` });
    }
  }
  expect(db.transaction((tx) => saveWithSha(tx, "0".repeat(64)))).toBeUndefined();
  db.$client.close();
});

test("a query prepared once per connection runs in later transactions and savepoints, and rolls back with them", () => {
  const db = openDatabase(join(dir, "prepared.sqlite"));
  const other = openDatabase(join(dir, "prepared-other.sqlite"));
  let builds = 0;
  const countSaves = (tx: Tx) => {
    builds++;
    return tx.select({ n: sql<number>`count(*)` }).from(saves).prepare();
  };
  const count = (on: Db) => on.transaction((tx) => prepared(tx, countSaves).get()!.n);
  const store = (tx: Tx, i: number) => storeSaveOnce(tx, { encrypted: new Uint8Array([i, 9, 9]), playerId: "7488393821744390161", source: "upload", receivedAt: i });

  expect(count(db)).toBe(0);
  db.transaction((tx) => store(tx, 1));
  expect(db.transaction((tx) => tx.transaction((savepoint) => prepared(savepoint, countSaves).get()!.n))).toBe(1);
  expect(() =>
    db.transaction((tx) => {
      store(tx, 2);
      expect(prepared(tx, countSaves).get()!.n).toBe(2);
      throw new Error("roll back");
    }),
  ).toThrow("roll back");
  expect(count(db)).toBe(1);
  // Another connection prepares its own.
  expect(count(other)).toBe(0);
  expect(builds).toBe(2);
  db.$client.close();
  other.$client.close();
});
