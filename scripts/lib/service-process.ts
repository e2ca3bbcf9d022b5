/**
 * Starts the real service (`bun src/main.ts`) as a child process on a random port, with only the env
 * it is given (over the checkout's launch settings, src/launch-env.ts) and a data folder (a temp one unless
 * told). Used by the demo, the benchmarks and the server tests. The pipeline polls every 50 ms so a short run
 * sees its saves handled at once.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const PROJECT_ROOT = resolve(import.meta.dir, "..", "..");

export interface RunningService {
  url: string;
  pid: number;
  dataDir: string;
  dbPath: string;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** Opens the SQLite file read-only (assertions, progress checks). */
  openDb: () => Database;
  waitForOutput: (pattern: RegExp | string, timeoutMs?: number) => Promise<string>;
  stop: (signal?: NodeJS.Signals) => Promise<number>;
  /** Removes the temp folder (after stop). */
  cleanup: () => void;
}

export interface ServiceOptions {
  env?: Record<string, string>;
  /** Reuse a data folder (to restart a server on the same database). */
  dataDir?: string;
  /** Run this executable (the one-file build) instead of `bun src/main.ts`; it starts in the data folder. */
  binary?: string;
  /** Run `src/main.ts` of another checkout (the benchmarks' "before"); this one when omitted. */
  root?: string;
  /** Options for bun before the entry point (a bench's `--preload` or `--cpu-prof`); not with `binary`. */
  bunArgs?: string[];
}

/** The launch settings of the checkout being started (an older one, benchmarked as "before", may have none). */
async function launchEnvOf(root: string): Promise<Record<string, string>> {
  const path = join(root, "src", "launch-env.ts");
  return existsSync(path) ? (await import(path)).LAUNCH_ENV : {};
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "mysekai-run-"));
  const dbPath = join(dataDir, "ingest.sqlite");
  let output = "";
  const proc = Bun.spawn(options.binary ? [options.binary] : [process.execPath, ...(options.bunArgs ?? []), "src/main.ts"], {
    cwd: options.binary ? dataDir : (options.root ?? PROJECT_ROOT),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      CONFIG_DIR: join(dataDir, "config"),
      PIPELINE_POLL_MS: "50",
      ...(await launchEnvOf(options.root ?? PROJECT_ROOT)),
      ...options.env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const part of stream) output += decoder.decode(part, { stream: true });
  };
  const pumped = Promise.all([pump(proc.stdout), pump(proc.stderr)]);

  /** A line is printed after what it reports is committed: wait for it rather than read the output once. */
  const waitForOutput = async (pattern: RegExp | string, timeoutMs = 10_000): Promise<string> => {
    const find = () => (typeof pattern === "string" ? (output.includes(pattern) ? pattern : null) : (pattern.exec(output)?.[0] ?? null));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = find();
      if (match !== null) return match;
      if (proc.exitCode !== null) {
        // The process may exit before its last lines reach us: read its output to the end first.
        await pumped;
        const late = find();
        if (late !== null) return late;
        throw new Error(`server exited (${proc.exitCode}) before ${pattern}:\n${output}`);
      }
      await Bun.sleep(10);
    }
    throw new Error(`timed out waiting for ${pattern}:\n${output}`);
  };

  // The line's words follow the owner's language (OWNER_LOCALE, LANG): its url= field does not.
  const listening = await waitForOutput(/\[SERVER\] [^\n=]* url=\S+/).catch((error) => {
    proc.kill("SIGKILL");
    throw error;
  });
  const url = listening.replace(/^.* url=/, "").replace("localhost", "127.0.0.1");
  return {
    url,
    pid: proc.pid,
    dataDir,
    dbPath,
    output: () => output,
    openDb: () => new Database(dbPath, { readonly: true, strict: true }),
    waitForOutput,
    stop: async (signal = "SIGTERM") => {
      if (proc.exitCode === null) proc.kill(signal);
      return await proc.exited;
    },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
