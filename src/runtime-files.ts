/**
 * Where the files the service reads at run time live (drizzle migrations, the map fonts): next to the
 * sources, or, in the one-file build (`bun run build:binary`), embedded in the executable. Native code
 * (resvg's font loader) and drizzle's migrator need real paths, so the binary unpacks its embedded files
 * once into a temp folder named after their content.
 */
import { existsSync, mkdirSync } from "node:fs";
import { writeFileAtomically } from "./atomic-file.ts";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import journal from "../drizzle/meta/_journal.json";
import pgJournal from "../drizzle/pg/meta/_journal.json";
import { WORKER_ENTRIES, type WorkerName } from "./worker-entries.ts";

const SOURCE_ROOT = resolve(import.meta.dir, "..");
/** Bun's embedded filesystem of a compiled executable. */
const COMPILED = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.includes("~BUN");

/**
 * Files are embedded by base name, and drizzle/ and drizzle/pg/ both hold 0000_*.sql: the build embeds a hub's
 * PostgreSQL migrations under this prefix (SQLite's start with a digit).
 */
export const PG_MIGRATION_PREFIX = "pg-";

/** Embedded name → path inside the project layout. */
function layoutPath(name: string): string | null {
  if (name.startsWith(PG_MIGRATION_PREFIX) && name.endsWith(".sql")) return join("drizzle", "pg", name.slice(PG_MIGRATION_PREFIX.length));
  if (name.endsWith(".sql")) return join("drizzle", name);
  if (name.endsWith(".otf")) return join("assets", "fonts", name);
  return null;
}

let unpacked: string | null = null;

async function contentHash(): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256").update(JSON.stringify(journal)).update(JSON.stringify(pgJournal));
  for (const file of Bun.embeddedFiles) hasher.update(`${(file as Blob & { name: string }).name}:${file.size}`);
  return hasher.digest("hex").slice(0, 16);
}

/** Unpacks the embedded files (compiled build only); idempotent, safe to race from several threads. */
export async function prepareRuntimeFiles(): Promise<void> {
  if (!COMPILED || unpacked !== null) return;
  const root = join(tmpdir(), `mysekai-ingest-${await contentHash()}`);
  mkdirSync(join(root, "drizzle", "meta"), { recursive: true });
  mkdirSync(join(root, "drizzle", "pg", "meta"), { recursive: true });
  mkdirSync(join(root, "assets", "fonts"), { recursive: true });
  for (const file of Bun.embeddedFiles) {
    const target = layoutPath((file as Blob & { name: string }).name);
    if (target !== null && !existsSync(join(root, target))) writeFileAtomically(join(root, target), new Uint8Array(await file.arrayBuffer()));
  }
  writeFileAtomically(join(root, "drizzle", "meta", "_journal.json"), JSON.stringify(journal));
  writeFileAtomically(join(root, "drizzle", "pg", "meta", "_journal.json"), JSON.stringify(pgJournal));
  unpacked = root;
}

/** A project-relative path (e.g. "drizzle" or "assets/fonts/x.otf") as a real file path. */
export function projectPath(relative: string): string {
  if (!COMPILED) return join(SOURCE_ROOT, relative);
  if (unpacked === null) throw new Error("prepareRuntimeFiles() must run before runtime files are read");
  return join(unpacked, relative);
}

/** A worker's entry: the built executable knows it by the path it was given at build time. */
export function workerEntry(name: WorkerName): string {
  const path = WORKER_ENTRIES[name];
  return COMPILED ? `./${path}` : Bun.pathToFileURL(join(SOURCE_ROOT, path)).href;
}
