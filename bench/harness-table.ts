/** The rows from the shared harness's result files: each cell is the spread over runs (min–max). */

export interface HarnessRun {
  label: string;
  phases: Record<string, unknown>;
}

type Pick = (run: HarnessRun) => number | null | undefined;

function at(run: HarnessRun, path: string): number | null {
  const value = path.split(".").reduce<unknown>((v, k) => (v == null ? v : (v as Record<string, unknown>)[k]), run.phases);
  return typeof value === "number" ? value : null;
}

const ROWS: [string, Pick[], string][] = [
  ["upload → archived p50 / p95, one at a time (ms)", [(r) => at(r, "latency.e2eMs.p50"), (r) => at(r, "latency.e2eMs.p95")], "p50 ≤ 150"],
  ["server CPU per save (s)", [(r) => at(r, "latency.server.cpuSPerSave")], "≤ 0.200"],
  ["upload accept p50 / p95 (ms)", [(r) => at(r, "latency.acceptMs.p50"), (r) => at(r, "latency.acceptMs.p95")], "p50 ≤ 4"],
  ["200 uploads at concurrency 8: saves/s", [(r) => at(r, "throughput.processedPerS")], "≥ 8, all archived"],
  ["… all archived after (s) / archived", [(r) => at(r, "throughput.allDoneS"), (r) => at(r, "throughput.done")], ""],
  ["… accept p50 / p99 (ms)", [(r) => at(r, "throughput.acceptMs.p50"), (r) => at(r, "throughput.acceptMs.p99")], ""],
  ["report, nothing to process: p50 / p99 (ms)", [(r) => at(r, "report.skip.latencyMs.p50"), (r) => at(r, "report.skip.latencyMs.p99")], "≤ predecessor: 3.2–6.2 / 4.8–8.9"],
  ["report while maps render: p50 / p99 (ms)", [(r) => at(r, "report.valid.latencyMs.p50"), (r) => at(r, "report.valid.latencyMs.p99")], "p99 ≤ 10"],
  ["… its saves all archived after (s)", [(r) => at(r, "report.valid.background.allDoneS")], ""],
  [
    "peak RSS (MB): latency / throughput / report skip / report valid",
    [(r) => at(r, "latency.server.peakRssMb"), (r) => at(r, "throughput.server.peakRssMb"), (r) => at(r, "report.skip.server.peakRssMb"), (r) => at(r, "report.valid.server.peakRssMb")],
    "≤ 200 each",
  ],
];

function spread(values: (number | null | undefined)[]): string {
  const known = values.filter((v): v is number => typeof v === "number");
  if (known.length === 0) return "–";
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const missing = known.length < values.length ? " (some runs missing)" : "";
  return (lo === hi ? `${lo}` : `${lo}–${hi}`) + missing;
}

function cell(runs: HarnessRun[], picks: Pick[]): string {
  return runs.length === 0 ? "not run" : picks.map((pick) => spread(runs.map(pick))).join(" / ");
}

export function formatTable(results: { before: HarnessRun[]; after: HarnessRun[] }): string {
  const lines = ["| row | before | after | target |", "|---|---|---|---|"];
  for (const [name, picks, target] of ROWS) lines.push(`| ${name} | ${cell(results.before, picks)} | ${cell(results.after, picks)} | ${target} |`);
  return lines.join("\n");
}
