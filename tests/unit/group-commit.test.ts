/** GroupCommitter: one transaction per turn of the event loop, a savepoint per write, settled after COMMIT. */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GroupCommitter } from "../../src/db/sqlite/group-commit.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";

const dir = mkdtempSync(join(tmpdir(), "mysekai-group-commit-"));
const path = join(dir, "db.sqlite");
const db = openDatabase(path);
db.$client.exec("CREATE TABLE marks (n INTEGER PRIMARY KEY)");
const other = new Database(path, { readonly: true });
afterAll(() => {
  other.close();
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (n: number) => db.$client.run("INSERT INTO marks (n) VALUES (?)", [n]);
const marks = (connection: Database) => (connection.query("SELECT n FROM marks ORDER BY n").all() as { n: number }[]).map((row) => row.n);

describe("GroupCommitter", () => {
  test("writes queued in one turn share a transaction; a throwing write is rolled back and rejected alone", async () => {
    db.$client.exec("DELETE FROM marks");
    const committer = new GroupCommitter(db);
    const seenBySecond: number[][] = [];
    const first = committer.run(() => insert(1));
    const failing = committer.run(() => {
      insert(2);
      throw new Error("refused");
    });
    const third = committer.run(() => {
      seenBySecond.push(marks(db.$client));
      insert(3);
      return "third";
    });
    const [a, b, c] = await Promise.allSettled([first, failing, third]);
    expect(a.status).toBe("fulfilled");
    expect(b).toMatchObject({ status: "rejected", reason: new Error("refused") });
    expect(c).toMatchObject({ status: "fulfilled", value: "third" });
    // The third write ran after the second's rollback, in the same transaction as the first.
    expect(seenBySecond).toEqual([[1]]);
    expect(marks(db.$client)).toEqual([1, 3]);
  });

  test("a write settles only once committed: another connection already sees it", async () => {
    db.$client.exec("DELETE FROM marks");
    const committer = new GroupCommitter(db);
    const seen = await committer.run(() => insert(7)).then(() => marks(other));
    expect(seen).toEqual([7]);
  });

  test("a write that makes SQLite end the transaction rejects the whole batch with that error", async () => {
    db.$client.exec("DELETE FROM marks");
    const committer = new GroupCommitter(db);
    db.$client.exec("CREATE TEMP TRIGGER refuse_nine BEFORE INSERT ON marks WHEN NEW.n = 9 BEGIN SELECT RAISE(ROLLBACK, 'no nines'); END");
    try {
      const results = await Promise.allSettled([committer.run(() => insert(8)), committer.run(() => insert(9))]);
      expect(results).toMatchObject([
        { status: "rejected", reason: { message: expect.stringContaining("no nines") } },
        { status: "rejected", reason: { message: expect.stringContaining("no nines") } },
      ]);
      expect(marks(db.$client)).toEqual([]);
    } finally {
      db.$client.exec("DROP TRIGGER refuse_nine");
    }
  });
});
