/** The owner CLI against a running server's data folder (not spawnSync: an in-process server answers from this process). */
import { join } from "node:path";
import type { RunningServer } from "./in-process.ts";

/** `env` goes beside the data folder: a hub's DATABASE_URL, which the CLI then acts on instead of the SQLite file. */
export async function ownerCliWith(env: Record<string, string>, server: RunningServer, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/cli.ts"), ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { code, out, err };
}

export const ownerCli = (server: RunningServer, ...args: string[]) => ownerCliWith({}, server, ...args);

/** The last line a successful command printed (a new token, say). */
export async function ownerCliLastLineWith(env: Record<string, string>, server: RunningServer, ...args: string[]): Promise<string> {
  const { code, out, err } = await ownerCliWith(env, server, ...args);
  if (code !== 0) throw new Error(`cli ${args[0]} exited ${code}: ${err}`);
  return out.trim().split("\n").at(-1)!;
}

export const ownerCliLastLine = (server: RunningServer, ...args: string[]) => ownerCliLastLineWith({}, server, ...args);
