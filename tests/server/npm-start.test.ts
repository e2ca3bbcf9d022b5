/**
 * `npm start` as the README runs it (and pm2, nohup or a supervisor start it): it reads the `.env` of its folder,
 * and a signal to npm's own pid stops the server (npm forwards it to its script, which is the server by `exec`). It runs in a copy of the checkout's top
 * level (package.json copied, the rest linked), so the checkout's own `.env` stays out of the test.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eventually } from "../helpers/server.ts";

setDefaultTimeout(60_000);
const ROOT = resolve(import.meta.dir, "..", "..");
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A folder that `npm start` runs in as in the checkout, with `dotenv` as its `.env`. */
function checkoutCopy(dotenv: string): string {
  const folder = mkdtempSync(join(tmpdir(), "mysekai-npm-start-"));
  folders.push(folder);
  copyFileSync(join(ROOT, "package.json"), join(folder, "package.json"));
  for (const name of ["bunfig.toml", "tsconfig.json", "src", "drizzle", "assets", "node_modules"]) symlinkSync(join(ROOT, name), join(folder, name));
  writeFileSync(join(folder, ".env"), dotenv);
  return folder;
}

interface NpmStart {
  pid: number;
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  exited: Promise<number>;
  /** SIGKILL to npm and everything it started. */
  killAll: () => void;
}

function npmStart(folder: string): NpmStart {
  const dataDir = join(folder, "data");
  const proc = Bun.spawn(["npm", "start"], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, CONFIG_DIR: join(folder, "config") },
    stdout: "pipe",
    stderr: "pipe",
    // A process group of its own: whatever npm leaves behind can be killed with it.
    detached: true,
  });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const part of stream) output += decoder.decode(part, { stream: true });
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = pattern.exec(output);
      if (match !== null) return match;
      await Bun.sleep(20);
    }
    throw new Error(`timed out waiting for ${pattern}:\n${output}`);
  };
  const killAll = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // the group is gone
    }
  };
  return { pid: proc.pid, output: () => output, waitFor, exited: proc.exited, killAll };
}

test("npm start reads the .env of its folder", async () => {
  // With ADMIN_TOKEN the setup line gives PUBLIC_BASE_URL's address (without it, this machine's: /setup is loopback-only).
  const folder = checkoutCopy("PUBLIC_BASE_URL=https://from-dotenv.example\nADMIN_TOKEN=dotenv-admin-token-0123456789\n");
  const started = npmStart(folder);
  try {
    await started.waitFor(/capture setup \(owner\): \S+/);
    expect(started.output()).toContain("capture setup (owner): https://from-dotenv.example/setup");
  } finally {
    started.killAll();
    await started.exited;
  }
});

/** True while any process of the group `pgid` runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

test("SIGTERM to npm start's own pid stops the server: its shutdown line, nothing left running, the port free", async () => {
  const started = npmStart(checkoutCopy(""));
  try {
    const [, url] = await started.waitFor(/listening url=(\S+)/);
    const port = Number(new URL(url!).port);
    process.kill(started.pid, "SIGTERM");
    await started.waitFor(/\[SERVER\] stopped/);
    expect(started.output()).toContain("[SERVER] shutting down signal=SIGTERM");
    await started.exited;
    await eventually(() => !groupAlive(started.pid), 10_000, "every process npm started to end");
    const again = Bun.serve({ hostname: "127.0.0.1", port, fetch: () => new Response("ok") });
    await again.stop();
  } finally {
    started.killAll();
  }
});

test("SIGTERM the moment the service says it listens still gets its shutdown (handlers are in place before that line)", async () => {
  // Before they were, about half of such stops killed it silently; ten in a row would all pass by chance about one time in 500.
  for (let round = 0; round < 10; round++) {
    const dataDir = mkdtempSync(join(tmpdir(), "mysekai-prompt-stop-"));
    folders.push(dataDir);
    const proc = Bun.spawn([process.execPath, "src/main.ts"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, CONFIG_DIR: join(dataDir, "config"), NOTIFY_DEFAULT: "none" },
      stdout: "pipe",
      stderr: "ignore",
    });
    let output = "";
    const decoder = new TextDecoder();
    const reader = proc.stdout.getReader();
    while (!output.includes("listening")) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value, { stream: true });
    }
    proc.kill("SIGTERM");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value, { stream: true });
    }
    await proc.exited;
    expect([round, output.includes("[SERVER] stopped")]).toEqual([round, true]);
  }
});
