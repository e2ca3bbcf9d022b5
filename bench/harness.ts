/**
 * Runs the shared harness (`measure.mjs`, the one the predecessor was measured with) against the real
 * server, one fresh server and data folder per phase, `--runs` times; with `--before=REF` the same
 * against a checkout of REF, alternating, so both see the same machine. Prints the issue's table and,
 * with `--write`, puts it into BENCHMARKS.md between the `bench:harness` markers.
 *
 *   bun bench/harness.ts [--harness=../shared/bench] [--runs=2] [--before=REF] [--predecessor=GIT_DIR]
 *                        [--phases=latency,throughput,report] [--set=NAME=VALUE]… [--poll-ms=N] [--quick] [--write]
 *
 * The harness is not part of the project: it is read from `--harness` (or BENCH_HARNESS) and, when it has
 * no node_modules, copied to a temp folder and installed there (`npm install`, msgpackr only).
 * With `--predecessor` (or PREDECESSOR_GIT: a git snapshot of mouse233/MySekaiMapper) the harness's
 * predecessor.sh exports it to a temp folder and it is measured in the same session, between our runs;
 * without it the table shows its recorded figures (bench/predecessor-figures.json, which `--write` renews).
 * `--poll-ms` (harness default 25, at least 5) is how often the harness looks for the archive: upload → archived
 * comes in steps of about that much. Give it to both sides (ours and the predecessor's) or to neither.
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
const predecessorGit = arg("predecessor") ?? process.env.PREDECESSOR_GIT;
const PREDECESSOR_FIGURES = join(PROJECT_ROOT, "bench", "predecessor-figures.json");
const quick = flag("quick");
const PHASES = (arg("phases") ?? "latency,throughput,report").split(",");
const SIZE = quick ? { latency: 5, throughput: 24, report: 20 } : { latency: 20, throughput: 200, report: 100 };
const pollMs = arg("poll-ms");
const SIZES = ["--latency-n", String(SIZE.latency), "--tp-n", String(SIZE.throughput), "--report-n", String(SIZE.report), ...(pollMs ? ["--poll-ms", pollMs] : [])];
const KEYS = { AES_KEY: "BenchTestKey0001", AES_IV: "BenchTestIv00001" };
/** `--set=NAME=VALUE` (repeatable): an environment setting for our servers, to compare launch settings. */
const SETTINGS = Object.fromEntries(
  process.argv.filter((a) => a.startsWith("--set=")).map((a) => {
    const [name, ...value] = a.slice("--set=".length).split("=");
    return [name, value.join("=")];
  }),
);

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
  const service = await startService({ root, env: { ...KEYS, NOTIFY_DEFAULT: "none", PIPELINE_POLL_MS: "1000", ...SETTINGS } });
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

/**
 * The predecessor as the harness's README runs it: latency and report (skip) only, a fresh server per phase
 * (its throughput phase never finishes: its renderer is not thread-safe). Its folder is outside the project.
 */
async function measurePredecessor(harness: string, work: string, label: string): Promise<HarnessRun> {
  const script = join(harness, "predecessor.sh");
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const out = join(work, "harness-result.json");
  await run([script, "start", work, port], harness);
  try {
    await run(
      ["node", "measure.mjs", "--base", `http://127.0.0.1:${port}`, "--data-dir", join(work, "data"), "--pid-file", join(work, "server.pid"),
        "--phases", "latency,report", "--report-variants", "skip", "--label", label, "--out", out, ...SIZES,
        "--restart-cmd", `${script} stop ${work}; ${script} start ${work} ${port}`],
      harness,
    );
  } finally {
    await run([script, "stop", work], harness);
  }
  return { label, phases: JSON.parse(readFileSync(out, "utf8")).phases };
}

async function exportedPredecessor(harness: string, gitDir: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "mysekai-predecessor-"));
  await run([join(harness, "predecessor.sh"), "export", gitDir, work], harness);
  return work;
}

function recordedPredecessor(): { runs: HarnessRun[]; note: string } {
  if (!existsSync(PREDECESSOR_FIGURES)) return { runs: [], note: "predecessor not run" };
  const recorded = JSON.parse(readFileSync(PREDECESSOR_FIGURES, "utf8")) as { taken: string; machine: string; runs: HarnessRun[] };
  return { runs: recorded.runs, note: `predecessor = its figures recorded ${recorded.taken} on ${recorded.machine}, not this session` };
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
const predecessorWork = predecessorGit ? await exportedPredecessor(harness, resolve(predecessorGit)) : null;
const results: { before: HarnessRun[]; after: HarnessRun[]; predecessor: HarnessRun[] } = { before: [], after: [], predecessor: [] };
try {
  for (let i = 1; i <= runs; i++) {
    if (checkout) results.before.push(await measureRun(harness, checkout.root, `before-${i}`));
    if (predecessorWork) results.predecessor.push(await measurePredecessor(harness, predecessorWork, `predecessor-${i}`));
    results.after.push(await measureRun(harness, PROJECT_ROOT, `after-${i}`));
  }
} finally {
  await checkout?.remove();
  if (predecessorWork) rmSync(predecessorWork, { recursive: true, force: true });
}
const taken = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Bun ${Bun.version}`;
const recorded = predecessorWork ? null : recordedPredecessor();
if (recorded) results.predecessor = recorded.runs;
const predecessorNote = recorded?.note ?? "predecessor = the same session, between our runs";
const heading = `Shared harness, ${taken}, ${machine}${quick ? " (--quick sizes)" : ""}: ${runs} run(s) each, one fresh server per phase; before = ${before ?? "not run"}, after = working tree${pollMs ? `, archive polled every ${pollMs} ms` : ""}${Object.keys(SETTINGS).length ? ` with ${Object.entries(SETTINGS).map(([k, v]) => `${k}=${v}`).join(" ")}` : ""}; ${predecessorNote}.`;
const table = `${heading}\n\n${formatTable(results, SIZE)}`;
console.log(`\n${table}`);
if (flag("write")) {
  writeSection(table);
  if (predecessorWork && !quick) writeFileSync(PREDECESSOR_FIGURES, `${JSON.stringify({ taken, machine, runs: results.predecessor }, null, 1)}\n`);
}
