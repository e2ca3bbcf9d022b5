/**
 * The rows from the shared harness's result files: each cell is the spread over runs (min–max). The
 * predecessor's column comes from the same session when it ran, or from its recorded figures (named so).
 */

export interface HarnessRun {
  label: string;
  phases: Record<string, unknown>;
}

type Pick = (run: HarnessRun) => number | null | undefined;

function at(run: HarnessRun, path: string): number | null {
  const value = path.split(".").reduce<unknown>((v, k) => (v == null ? v : (v as Record<string, unknown>)[k]), run.phases);
  return typeof value === "number" ? value : null;
}

/** Minor page faults per save or report of a phase: a figure that does not depend on the host. */
function faultsPer(phase: string, items: number): Pick {
  return (r) => {
    const faults = at(r, `${phase}.server.minorFaults`);
    return faults == null ? null : Math.round(faults / items);
  };
}

/** The kernel's share of the server's CPU in a phase, in per cent. */
function systemShare(phase: string): Pick {
  return (r) => {
    const sys = at(r, `${phase}.server.serverSysS`);
    const all = at(r, `${phase}.server.serverCpuS`);
    return sys == null || !all ? null : Math.round((sys / all) * 100);
  };
}

export function tableRows(sizes: { latency: number; throughput: number; report: number }): [string, Pick[], string][] {
  return [
    ["upload → archived p50 / p95, one at a time (ms)", [(r) => at(r, "latency.e2eMs.p50"), (r) => at(r, "latency.e2eMs.p95")], "p50 ≤ 100 and ≥ 15× faster than the predecessor"],
    ["server CPU per save (s)", [(r) => at(r, "latency.server.cpuSPerSave")], "≤ 0.15"],
    ["minor page faults per save, one at a time", [(r) => at(r, "latency.server.minorFaultsPerSave")], "≤ 3,000"],
    ["system CPU share (%): latency / throughput / report skip / report valid", ["latency", "throughput", "report.skip", "report.valid"].map(systemShare), ""],
    ["minor faults per item: throughput save / report skip / report valid", [faultsPer("throughput", sizes.throughput), faultsPer("report.skip", sizes.report), faultsPer("report.valid", sizes.report)], ""],
    ["upload accept p50 / p95 (ms)", [(r) => at(r, "latency.acceptMs.p50"), (r) => at(r, "latency.acceptMs.p95")], "p50 ≤ predecessor"],
    ["200 uploads at concurrency 8: saves/s", [(r) => at(r, "throughput.processedPerS")], "≥ 10, all archived"],
    ["… all archived after (s) / archived", [(r) => at(r, "throughput.allDoneS"), (r) => at(r, "throughput.done")], ""],
    ["… accept p50 / p99 (ms)", [(r) => at(r, "throughput.acceptMs.p50"), (r) => at(r, "throughput.acceptMs.p99")], ""],
    ["report, nothing to process: p50 / p99 (ms)", [(r) => at(r, "report.skip.latencyMs.p50"), (r) => at(r, "report.skip.latencyMs.p99")], "p50 ≤ predecessor, p99 ≤ 1.5× its p99"],
    ["report while maps render: p50 / p99 (ms)", [(r) => at(r, "report.valid.latencyMs.p50"), (r) => at(r, "report.valid.latencyMs.p99")], "p99 ≤ 10"],
    ["… its saves all archived after (s)", [(r) => at(r, "report.valid.background.allDoneS")], ""],
    [
      "peak RSS (MB): latency / throughput / report skip / report valid",
      [(r) => at(r, "latency.server.peakRssMb"), (r) => at(r, "throughput.server.peakRssMb"), (r) => at(r, "report.skip.server.peakRssMb"), (r) => at(r, "report.valid.server.peakRssMb")],
      "≤ 256 each",
    ],
  ];
}

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

export function formatTable(
  results: { before: HarnessRun[]; after: HarnessRun[]; predecessor: HarnessRun[] },
  sizes: { latency: number; throughput: number; report: number },
): string {
  const lines = ["| row | before | after | predecessor | target |", "|---|---|---|---|---|"];
  for (const [name, picks, target] of tableRows(sizes)) {
    lines.push(`| ${name} | ${cell(results.before, picks)} | ${cell(results.after, picks)} | ${cell(results.predecessor, picks)} | ${target} |`);
  }
  return lines.join("\n");
}
