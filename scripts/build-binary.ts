/**
 * `bun run build:binary [outfile]`: one executable (`bun build --compile`) that carries the app, every worker
 * (src/worker-entries.ts), resvg's native addon, the map fonts and the drizzle migrations (unpacked at start by
 * src/runtime-files.ts). Built for the machine it runs on.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { WORKER_ENTRIES } from "../src/worker-entries.ts";

const root = resolve(import.meta.dir, "..");
const outfile = resolve(process.argv[2] ?? join(root, "dist", "mysekai-ingest"));
const embedded = [
  ...readdirSync(join(root, "drizzle")).filter((name) => name.endsWith(".sql")).map((name) => join(root, "drizzle", name)),
  ...readdirSync(join(root, "assets", "fonts")).filter((name) => name.endsWith(".otf")).map((name) => join(root, "assets", "fonts", name)),
];
const command = [process.execPath, "build", "--compile", "src/main.ts", ...Object.values(WORKER_ENTRIES), ...embedded, "--asset-naming", "[name].[ext]", "--outfile", outfile];
const build = Bun.spawnSync(command, { cwd: root, stdout: "inherit", stderr: "inherit" });
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
console.log(`built ${outfile}`);
