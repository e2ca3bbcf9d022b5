/** SQLite's statements are compiled once per SQL text and shared (src/db/sqlite/open.ts). */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../src/db/sqlite/open.ts";
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
