/** The owner CLI against a running server's data folder (not spawnSync: an in-process server answers from this process). */
import { join } from "node:path";
import type { RunningServer } from "./in-process.ts";

export async function ownerCli(server: RunningServer, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/cli.ts"), ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { code, out, err };
}

/** The last line a successful command printed (a new token, say). */
export async function ownerCliLastLine(server: RunningServer, ...args: string[]): Promise<string> {
  const { code, out, err } = await ownerCli(server, ...args);
  if (code !== 0) throw new Error(`cli ${args[0]} exited ${code}: ${err}`);
  return out.trim().split("\n").at(-1)!;
}
