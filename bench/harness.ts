/**
 * Runs the shared harness (`measure.mjs`, the one the predecessor was measured with) against the real
 * server, one fresh server and data folder per phase, `--runs` times; with `--before=REF` the same
 * against a checkout of REF, alternating, so both see the same machine. Prints the table and,
 * with `--write`, puts it into BENCHMARKS.md between the `bench:harness` markers.
 *
 *   bun bench/harness.ts [--harness=../shared/bench] [--runs=2] [--before=REF] [--quick] [--write]
 *
 * The harness is not part of the project: it is read from `--harness` (or BENCH_HARNESS) and, when it has
 * no node_modules, copied to a temp folder and installed there (`npm install`, msgpackr only).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { startService } from "../scripts/lib/service-process.ts";
import { formatTable, type HarnessRun } from "./harness-table.ts";

const PROJECT_ROOT = resolve(import.meta.dir, "..");
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=").slice(1).join("=");
const flag = (name: string) => process.argv.includes(`--${name}`);

const harnessArg = resolve(PROJECT_ROOT, arg("harness") ?? process.env.BENCH_HARNESS ?? "../shared/bench");
const runs = Number(arg("runs") ?? 2);
const before = arg("before");
const quick = flag("quick");
const PHASES = (arg("phases") ?? "latency,throughput,report").split(",");
const SIZES = quick ? ["--latency-n", "5", "--tp-n", "24", "--report-n", "20"] : [];
const KEYS = { AES_KEY: "BenchTestKey0001", AES_IV: "BenchTestIv00001" };

/** Not spawnSync: this process must keep reading the server's output, or its pipe fills and the server stalls. */
async function run(cmd: string[], cwd: string): Promise<void> {
  const code = await Bun.spawn(cmd, { cwd, stdout: "inherit", stderr: "inherit" }).exited;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}`);
}

async function preparedHarness(): Promise<string> {
  if (!existsSync(join(harnessArg, "measure.mjs"))) throw new Error(`no shared harness at ${harnessArg} (pass --harness=DIR)`);
  if (existsSync(join(harnessArg, "node_modules"))) return harnessArg;
  const copy = join(tmpdir(), "mysekai-shared-harness");
  if (!existsSync(join(copy, "node_modules"))) {
    rmSync(copy, { recursive: true, force: true }); // a copy whose install failed
    cpSync(harnessArg, copy, { recursive: true });
    // The shared folder is read-only, and so is its copy: npm must write node_modules there.
    await run(["chmod", "-R", "u+w", copy], copy);
    // Not `npm ci`: npm 11 refuses the harness's lockfile, which lacks other platforms' optional packages.
    await run(["npm", "install", "--no-audit", "--no-fund"], copy);
  }
  return copy;
}

/** A checkout of REF in a temp folder sharing this project's node_modules (same lockfile assumed). */
async function checkoutOf(ref: string): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), "mysekai-before-"));
  rmSync(root, { recursive: true });
  await run(["git", "worktree", "add", "--detach", root, ref], PROJECT_ROOT);
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  return { root, remove: () => run(["git", "worktree", "remove", "--force", root], PROJECT_ROOT) };
}

async function measurePhase(harness: string, root: string, phase: string, label: string): Promise<Record<string, unknown>> {
  const service = await startService({ root, env: { ...KEYS, NOTIFY_DEFAULT: "none", PIPELINE_POLL_MS: "1000" } });
  const out = join(service.dataDir, "harness-result.json");
  try {
    await run(
      ["node", "measure.mjs", "--base", service.url, "--data-dir", service.dataDir, "--pid", String(service.pid),
        "--upload-path", "/uploadSaveData", "--report-path", "/capture/report", "--health-path", "/healthz",
        "--probe", "file:archive/by-id/{playerId}/*/rare_resources.txt", "--phases", phase, "--label", label, "--out", out, ...SIZES],
      harness,
    );
    return JSON.parse(readFileSync(out, "utf8")).phases[phase];
  } finally {
    await service.stop();
    service.cleanup();
  }
}

async function measureRun(harness: string, root: string, label: string): Promise<HarnessRun> {
  const phases: Record<string, unknown> = {};
  for (const phase of PHASES) phases[phase] = await measurePhase(harness, root, phase, label);
  return { label, phases } as HarnessRun;
}

function writeSection(table: string): void {
  const file = join(PROJECT_ROOT, "BENCHMARKS.md");
  const start = "<!-- bench:harness:start -->";
  const end = "<!-- bench:harness:end -->";
  const text = readFileSync(file, "utf8");
  const section = `${start}\n${table}\n${end}`;
  const at = text.indexOf(start);
  const next = at < 0 ? `${text.trimEnd()}\n\n${section}\n` : text.slice(0, at) + section + text.slice(text.indexOf(end) + end.length);
  writeFileSync(file, next);
}

const harness = await preparedHarness();
const checkout = before ? await checkoutOf(before) : null;
const results: { before: HarnessRun[]; after: HarnessRun[] } = { before: [], after: [] };
try {
  for (let i = 1; i <= runs; i++) {
    if (checkout) results.before.push(await measureRun(harness, checkout.root, `before-${i}`));
    results.after.push(await measureRun(harness, PROJECT_ROOT, `after-${i}`));
  }
} finally {
  await checkout?.remove();
}
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Bun ${Bun.version}`;
const heading = `Shared harness, ${new Date().toISOString().slice(0, 10)}, ${machine}${quick ? " (--quick sizes)" : ""}: ${runs} run(s) each, one fresh server per phase; before = ${before ?? "not run"}, after = working tree.`;
const table = `${heading}\n\n${formatTable(results)}`;
console.log(`\n${table}`);
if (flag("write")) writeSection(table);
