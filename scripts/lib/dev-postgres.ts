/**
 * A throwaway PostgreSQL for a test or bench run (Debian's postgresql-15): initdb into a temp folder, postgres on a free
 * port and a socket in that folder, fsync off; started on first use, stopped and removed when the run ends. Each
 * test file takes a database of its own, empty or with the hub schema migrated (copied from a template).
 *
 *   describe.skipIf(POSTGRES_MISSING !== null)("…", () => {
 *     test("…", async () => { const db = await openPostgres(await databaseForThisFile("migrated")); … });
 *   });
 */
import { chownSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openPostgres } from "../../src/db/pg/open.ts";
import { eventually } from "./eventually.ts";
import { freePort } from "./free-port.ts";

const BIN = "/usr/lib/postgresql/15/bin";

/** Why the PostgreSQL tests cannot run here (printed once), or null when they can. */
export const POSTGRES_MISSING = existsSync(join(BIN, "postgres")) && existsSync(join(BIN, "initdb")) ? null : `PostgreSQL tests skipped: ${BIN}/postgres and initdb are missing (apt-get install postgresql-15)`;
if (POSTGRES_MISSING) console.warn(POSTGRES_MISSING);

interface Server {
  port: number;
  /** A connection to the `postgres` database, for CREATE DATABASE. */
  admin: postgres.Sql;
}

let running: Promise<Server> | undefined;
let template: Promise<string> | undefined;
let databases = 0;

/** initdb refuses to run as root: then the server runs as the postgres user, in a folder it owns. */
const asServerUser = (command: string[]) => (process.getuid?.() === 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", ...command] : command);
const idOf = (flag: "-u" | "-g") => Number(Bun.spawnSync(["id", flag, "postgres"]).stdout.toString());
const shell = (command: string[]) => command.map((arg) => `'${arg}'`).join(" ");

async function start(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), "pg-test-"));
  if (process.getuid?.() === 0) chownSync(dir, idOf("-u"), idOf("-g"));
  const data = join(dir, "data");
  const init = Bun.spawnSync(asServerUser([join(BIN, "initdb"), "-A", "trust", "--no-sync", "-U", "postgres", "-D", data]), { stdout: "pipe", stderr: "pipe" });
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
  const port = freePort();
  const log = join(dir, "postgres.log");
  // The server and its reaper are not this process's children: the runner kills its children when a test
  // times out, which would take the server from every later test file. The reaper waits for the run to end
  // (however it ends), stops the server and removes the folder.
  const server = asServerUser([join(BIN, "postgres"), "-D", data, "-p", String(port), "-k", dir, "-c", "fsync=off", "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"]);
  const stop = asServerUser([join(BIN, "pg_ctl"), "stop", "-D", data, "-m", "immediate", "-w", "-s"]);
  const reaper = `${shell(server)} >>'${log}' 2>&1 & tail --pid=${process.pid} -s 0.2 -f /dev/null; ${shell(stop)}; rm -rf '${dir}'`;
  Bun.spawnSync(["sh", "-c", `setsid sh -c "$0" </dev/null >/dev/null 2>&1 &`, reaper]);
  const admin = postgres({ host: "127.0.0.1", port, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
  await eventually(() => admin`SELECT 1`.then(() => true, () => false), 20_000, `postgres to accept connections (log: ${log})`);
  return { port, admin };
}

const urlOf = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

/** The run's server, started on first use. */
export function postgresServer(): Promise<Server> {
  running ??= start();
  return running;
}

/** A database migrated once per run, copied (CREATE DATABASE … TEMPLATE) for each file that wants the schema. */
async function migratedTemplate(): Promise<string> {
  const { admin, port } = await postgresServer();
  await admin`CREATE DATABASE migrated_template`;
  const db = await openPostgres(urlOf(port, "migrated_template"), { maxConnections: 2 });
  await db.$client.end();
  return "migrated_template";
}

/** A database of the calling test file's own: empty, or with the hub schema as openPostgres migrates it. Returns its URL. */
export async function databaseForThisFile(kind: "empty" | "migrated"): Promise<string> {
  const { admin, port } = await postgresServer();
  const name = `test_${process.pid}_${++databases}`;
  if (kind === "migrated") {
    template ??= migratedTemplate();
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${await template}`);
  } else {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  }
  return urlOf(port, name);
}

export interface RestartablePostgres {
  /** postgres://…/hub: one database, created at the first start. */
  url: string;
  /** Stops the server (`pg_ctl stop -m fast`: what an operator's restart or a failover does to its clients). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** SIGSTOP (or SIGCONT) to the server and its backends, by their ids: a database that stops answering, silently. */
  freeze(frozen: boolean): void;
}

/**
 * A PostgreSQL of the calling test's own, which the test may stop and start under a running service (the run's
 * server is shared by every file). Removed when the run ends, however it ends.
 */
export async function restartablePostgres(): Promise<RestartablePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "pg-restart-"));
  if (process.getuid?.() === 0) chownSync(dir, idOf("-u"), idOf("-g"));
  const data = join(dir, "data");
  const init = Bun.spawnSync(asServerUser([join(BIN, "initdb"), "-A", "trust", "--no-sync", "-U", "postgres", "-D", data]), { stdout: "pipe", stderr: "pipe" });
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
  const port = freePort();
  const ctl = (...args: string[]) => asServerUser([join(BIN, "pg_ctl"), ...args, "-D", data, "-w", "-s"]);
  const options = `-p ${port} -k ${dir} -c fsync=off -c listen_addresses=127.0.0.1`;
  const reaper = `tail --pid=${process.pid} -s 0.2 -f /dev/null; ${shell(ctl("stop", "-m", "immediate"))}; rm -rf '${dir}'`;
  Bun.spawnSync(["sh", "-c", `setsid sh -c "$0" </dev/null >/dev/null 2>&1 &`, reaper]);
  const run = async (command: string[]) => {
    const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
    if ((await proc.exited) !== 0) throw new Error(`${command.join(" ")} failed: ${await new Response(proc.stderr).text()}`);
  };
  const start = () => run(ctl("start", "-o", options, "-l", join(dir, "postgres.log")));
  await start();
  const admin = postgres({ host: "127.0.0.1", port, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
  await admin`CREATE DATABASE hub`;
  await admin.end();
  const freeze = (frozen: boolean) => {
    const postmaster = readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]!.trim();
    const children = Bun.spawnSync(["pgrep", "-P", postmaster]).stdout.toString().split(/\s+/).filter(Boolean);
    for (const pid of [postmaster, ...children]) process.kill(Number(pid), frozen ? "SIGSTOP" : "SIGCONT");
  };
  return { url: urlOf(port, "hub"), start, stop: () => run(ctl("stop", "-m", "fast")), freeze };
}
