import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eventually } from "../../scripts/lib/eventually.ts";
import { startService } from "../../scripts/lib/service-process.ts";
import { uploadSave } from "../../scripts/lib/upload-client.ts";
import postgres from "postgres";
import pgJournal from "../../drizzle/pg/meta/_journal.json";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { pgReads } from "../helpers/store-reads.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "mysekai-binary-"));
const binary = join(dir, "mysekai-ingest");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  const build = Bun.spawnSync([process.execPath, "scripts/build-binary.ts", binary], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(build.exitCode).toBe(0);
}, 60_000);

test("the one-file build (resvg addon, fonts, migrations inside) runs its own demo from an empty folder", async () => {
  const empty = mkdtempSync(join(dir, "empty-"));
  const demo = Bun.spawn([binary, "demo"], { cwd: empty, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  const [output, errors, code] = await Promise.all([new Response(demo.stdout).text(), new Response(demo.stderr).text(), demo.exited]);
  expect({ code, errors: code === 0 ? "" : errors }).toEqual({ code: 0, errors: "" });
  expect(output).toContain("→ 200 OK");
  for (const name of ["site_5.png", "site_8.png", "overview.png", "summary.json"]) expect(output).toContain(`  ${name}`);
  // Drawn maps, not placeholders (the fonts are checked by eye in the report: text renders in the binary).
  const folder = /maps and summary archived in (\S+):/.exec(output)![1]!;
  expect(folder.startsWith(join(empty, "data", "demo", "archive"))).toBe(true);
  expect((await Bun.file(join(folder, "site_5.png")).bytes()).byteLength).toBeGreaterThan(50_000);
}, 60_000);

test("the binary answers --help and --version and exits; `cli <command>` runs every owner command", async () => {
  const run = (args: string[], env: Record<string, string> = {}) => {
    const result = Bun.spawnSync([binary, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ...env } });
    return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
  };
  const version = (await Bun.file(join(ROOT, "package.json")).json()).version as string;
  expect(run(["--version"])).toEqual({ code: 0, out: `${version}\n`, err: "" });
  const help = run(["--help"]);
  expect(help.code).toBe(0);
  expect(help.out).toContain("mysekai-ingest cli <command>");
  expect(run(["--bogus"]).code).toBe(2);
  const data = join(dir, "cli-data");
  expect(run(["cli", "jobs"], { DATA_DIR: data }).out.trim()).toBe("no jobs");
  const added = run(["cli", "players", "add", "7488393821744390161"], { DATA_DIR: data, PUBLIC_BASE_URL: "https://sekai.example.com" });
  expect(added.out).toMatch(/^link for 7488393821744390161: https:\/\/sekai\.example\.com\/p\//);
  expect(run(["cli", "retry", "5"], { DATA_DIR: data }).err).toContain("save 5 does not exist");
  // `init`, the first-run wizard, writes .env in the folder it runs in: language (English), key, IV, no channel, no address.
  const fresh = mkdtempSync(join(dir, "init-"));
  const addresses = (text: string) => (text.match(/^ {2}\d+\) /gm) ?? []).length;
  const answers = ["5", "0123456789abcdef", "fedcba9876543210", "6"];
  const asked = Bun.spawnSync([binary, "init"], { cwd: fresh, env: { PATH: process.env.PATH ?? "" }, stdin: new TextEncoder().encode(answers.join("\n") + "\n") });
  // Input ended at the address question: nothing written; then the same answers with its last choice ("none").
  expect({ code: asked.exitCode, files: readdirSync(fresh) }).toEqual({ code: 1, files: [] });
  const none = String(addresses(asked.stdout.toString().split("PUBLIC_BASE_URL")[1] ?? ""));
  const init = Bun.spawnSync([binary, "init"], { cwd: fresh, env: { PATH: process.env.PATH ?? "" }, stdin: new TextEncoder().encode([...answers, none].join("\n") + "\n") });
  expect({ code: init.exitCode, err: init.stderr.toString() }).toEqual({ code: 0, err: "" });
  expect(init.stdout.toString()).toContain("1. mysekai-ingest");
  expect(readFileSync(join(fresh, ".env"), "utf8")).toContain(`AES_KEY=hex:${Buffer.from("0123456789abcdef").toString("hex")}`);
}, 60_000);

/** One batch of 100 uploads of 64 KiB writes ~13 MiB to the WAL; two batches with no checkpoint between write twice that. */
const WAL_BOUND_BYTES = 18 * 1024 * 1024;

/** True once every frame in the WAL is copied into the database (the -shm index: mxFrame at 16, nBackfill at 96). */
function checkpointCaughtUp(dbPath: string): boolean {
  const shm = readFileSync(`${dbPath}-shm`);
  const view = new DataView(shm.buffer, shm.byteOffset, shm.byteLength);
  return view.getUint32(16, true) > 0 && view.getUint32(96, true) === view.getUint32(16, true);
}

test("the binary runs every worker: its own output is clean and its WAL stays bounded under 200 uploads", async () => {
  // No AES key: the saves wait for one, so the WAL holds only what the uploads wrote.
  const server = await startService({ binary, env: { NOTIFY_DEFAULT: "none" } });
  try {
    // Distinct bodies: the same bytes twice are one save.
    const upload = async (i: number) => expect((await uploadSave(server.url, crypto.getRandomValues(new Uint8Array(64 * 1024)), `wal-${i}`)).status).toBe(200);
    for (let i = 0; i < 100; i++) await upload(i);
    // The checkpoint worker copies the WAL back within its interval; after that, writers reuse the WAL from its start.
    await eventually(() => checkpointCaughtUp(server.dbPath), 15_000, "a checkpoint of the first 100 uploads");
    for (let i = 100; i < 200; i++) await upload(i);
    const walBytes = statSync(`${server.dbPath}-wal`).size; 
    expect(walBytes).toBeLessThan(WAL_BOUND_BYTES);
    await server.stop();
    const noisy = server.output().split("\n").filter((line) => /WARN|ERROR|error|Uncaught|panic/i.test(line));
    expect(noisy).toEqual([expect.stringContaining("no AES key configured")]);
  } finally {
    await server.stop("SIGKILL");
    server.cleanup();
  }
}, 60_000);

test.skipIf(POSTGRES_MISSING !== null)("the binary migrates a hub's PostgreSQL from its own drizzle/pg migrations and serves on it", async () => {
  const url = await databaseForThisFile("empty");
  const server = await startService({ binary, env: { ...hubSettings(url), NOTIFY_DEFAULT: "none" } });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await pgReads(sql).appliedMigrations()).toBe(pgJournal.entries.length);
  } finally {
    await sql.end();
    await server.stop();
    server.cleanup();
  }
}, 60_000);
