/**
 * `bun run build:binary [outfile]`: one executable (`bun build --compile`) that carries the app, every worker
 * (src/worker-entries.ts), resvg's native addon, the map fonts and the drizzle migrations of SQLite and of a hub's
 * PostgreSQL (unpacked at start by src/runtime-files.ts). Built for the machine it runs on.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PG_MIGRATION_PREFIX } from "../src/runtime-files.ts";
import { WORKER_ENTRIES } from "../src/worker-entries.ts";

const root = resolve(import.meta.dir, "..");
const outfile = resolve(process.argv[2] ?? join(root, "dist", "mysekai-ingest"));
const sqlIn = (folder: string) => readdirSync(folder).filter((name) => name.endsWith(".sql"));
// Files are embedded by their base name, and drizzle/ and drizzle/pg/ both hold 0000_*.sql: a hub's migrations go
// in under a prefixed copy, which src/runtime-files.ts unpacks back into drizzle/pg/.
const staging = mkdtempSync(join(tmpdir(), "mysekai-build-"));
for (const name of sqlIn(join(root, "drizzle", "pg"))) copyFileSync(join(root, "drizzle", "pg", name), join(staging, `${PG_MIGRATION_PREFIX}${name}`));
const embedded = [
  ...sqlIn(join(root, "drizzle")).map((name) => join(root, "drizzle", name)),
  ...sqlIn(staging).map((name) => join(staging, name)),
  ...readdirSync(join(root, "assets", "fonts")).filter((name) => name.endsWith(".otf")).map((name) => join(root, "assets", "fonts", name)),
];
const command = [process.execPath, "build", "--compile", "src/main.ts", ...Object.values(WORKER_ENTRIES), ...embedded, "--asset-naming", "[name].[ext]", "--outfile", outfile];
const build = Bun.spawnSync(command, { cwd: root, stdout: "inherit", stderr: "inherit" });
rmSync(staging, { recursive: true, force: true });
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
console.log(`built ${outfile}`);
