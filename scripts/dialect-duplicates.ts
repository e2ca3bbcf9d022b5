/**
 * Counts the code lines of the SQLite store files that reappear in the PostgreSQL store files (issue 37's measure):
 * `await`, `.run()`, `.all()`, `.get()` and `.execute()` set aside, imports and lines of only punctuation not counted.
 * A file is on PostgreSQL's side when it names PgDb/PgTx or the pg schema, on SQLite's side when it imports drizzle or
 * a SQLite schema/handle otherwise; dialect-free files are on neither (so are the statements and rules written once,
 * which take from drizzle only its `sql` tag and name no store); the schema files (table declarations) are left out.
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

const PG = /\bPg(Db|Tx)\b|pg\/schema|pg-core|drizzle-orm\/postgres-js/;
const SQLITE = /from "drizzle-orm|sqlite-core|bun:sqlite|\btype (Db|Tx)\b/;
const NAMES_A_STORE = /sqlite-core|bun:sqlite|from "[^"]*\/(open|schema[^"/]*)\.ts"|\b(Db|Tx)\b/;

/** Written once for both stores: drizzle's `sql` tag is all it takes from drizzle, and it names neither store's schema nor handle. */
function writtenOnce(text: string): boolean {
  const fromDrizzle = [...text.matchAll(/import (?:type )?\{([^}]*)\} from "drizzle-orm"/g)].flatMap((m) => m[1]!.split(","));
  return !NAMES_A_STORE.test(text) && fromDrizzle.every((name) => /^\s*(type\s+)?(sql|SQL)\s*$/.test(name));
}

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
  const text = readFileSync(file, "utf8");
  if (PG.test(text)) sides.pg.push(file);
  else if (SQLITE.test(text) && !writtenOnce(text)) sides.sqlite.push(file);
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
