/**
 * sqliteText (src/db/dialect/statements.ts): PostgreSQL's `$n` and `= ANY($n)` become SQLite's `?n` and a JSON
 * list, but not inside a quoted literal or identifier, where `$1` is text.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { read, sqliteText } from "../../src/db/dialect/statements.ts";

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
