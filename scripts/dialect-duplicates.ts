/**
 * Counts the code lines of the SQLite store files that reappear in the PostgreSQL store files (issue 37's measure):
 * `await`, `.run()`, `.all()`, `.get()` and `.execute()` set aside, imports and lines of only punctuation not counted.
 * Store files are under src/db/: PostgreSQL's are `pg.ts`, `pg-*.ts` and src/db/pg/; SQLite's are `sqlite.ts`,
 * `sqlite-*.ts` and any other that takes SQLite's handle, transaction or schema; what is written once for both
 * (rules, statements, the dialect layer's steps) is on neither side; the schema files (table declarations, held to
 * one model by tests/unit/model-*.test.ts and pg-schema.test.ts) are left out.
 *
 *   bun scripts/dialect-duplicates.ts [--list]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..", "src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

const db = join(root, "db");
const PG_FILE = /\/db\/(pg\/|.*\/pg(-[^/]*)?\.ts$)/;
const SQLITE_FILE = /\/sqlite(-[^/]*)?\.ts$/;
/** A store file of SQLite's that is not named so: it takes SQLite's handle, transaction or schema. */
const SQLITE_HANDLE = /bun:sqlite|sqlite-core|import (type )?\{[^}]*\b(Db|Tx)\b[^}]*\} from "[^"]*\/open\.ts"|from "(\.\.?\/)+schema(-[a-z]+)?\.ts"/;

function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .map((line) => line.replace(/\/\/.*$/, "").trim())
    .filter((line) => !line.startsWith("import ") && !line.startsWith("} from ") && /[A-Za-z0-9]/.test(line))
    .map((line) => line.replace(/\bawait /g, "").replace(/\.(run|all|get|execute)\(\)/g, ""));
}

const sides = { sqlite: [] as string[], pg: [] as string[] };
for (const file of filesUnder(root)) {
  if (/\/schema[^/]*\.ts$/.test(file)) continue; // table declarations, checked against one model by their own test
  if (!file.startsWith(db)) continue; // no SQL lives outside src/db/ (src/stores.ts only picks the stores)
  if (PG_FILE.test(file)) sides.pg.push(file);
  else if (SQLITE_FILE.test(file) || SQLITE_HANDLE.test(readFileSync(file, "utf8"))) sides.sqlite.push(file);
}

const pgLines = new Set(sides.pg.flatMap((file) => codeLines(readFileSync(file, "utf8"))));
let total = 0;
let repeated = 0;
const perFile: string[] = [];
for (const file of sides.sqlite) {
  const lines = codeLines(readFileSync(file, "utf8"));
  const hits = lines.filter((line) => pgLines.has(line));
  total += lines.length;
  repeated += hits.length;
  if (hits.length) perFile.push(`${String(hits.length).padStart(4)} / ${String(lines.length).padStart(4)}  ${relative(root, file)}`);
}
if (process.argv.includes("--list")) console.log(perFile.sort().reverse().join("\n"));
console.log(`${repeated} of ${total} code lines in ${sides.sqlite.length} SQLite store files reappear in ${sides.pg.length} PostgreSQL store files`);
