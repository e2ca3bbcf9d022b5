/** Shared bits of the benchmarks: percentiles, a bounded-concurrency runner, and a server's peak RSS. */
import { readdirSync, readFileSync } from "node:fs";

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function latencySummary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1);
  return `p50 ${fmt(percentile(sorted, 50))} ms, p95 ${fmt(percentile(sorted, 95))} ms, p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(sorted.at(-1) ?? NaN)} ms`;
}

/** Runs `count` tasks with at most `concurrency` in flight; returns each task's duration in ms. */
export async function runConcurrent(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const durations: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      await task(i);
      durations.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return durations;
}

/** Peak resident set size of a process in MB (VmHWM), from /proc. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

export function intArg(name: string, fallback: number): number {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

/** A process' CPU seconds so far (user + system, all threads) and minor page faults, from /proc/<pid>/stat. */
export function processStat(pid: number | "self"): { cpuSeconds: number; minorFaults: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const TICKS_PER_SECOND = 100;
  return { cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, minorFaults: Number(fields[7]) };
}

/** CPU seconds so far of a process's threads, summed by the thread's name without its number ("Bun Pool 1"). */
export function threadCpu(pid: number): Record<string, number> {
  const byName: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\s*\d+$/, "");
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}
