/**
 * Where a service process's CPU goes: user and system time by thread name (digits folded: "Bun Pool 3" →
 * "Bun Pool #"), minor page faults, and the time slices its threads lost (involuntary context switches), from
 * /proc/PID/stat and /proc/PID/task/*\/{stat,status}. A thread that ends between two readings leaves the sum: its
 * time shows only in the process's total, which `breakdown` reports as "ended threads".
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

export interface Usage {
  user: number;
  system: number;
  faults: number;
}

export interface ProcessReading {
  total: Usage;
  byThread: Map<string, Usage>;
  lostSlices: number;
}

const NONE: Usage = { user: 0, system: 0, faults: 0 };

/** CPU seconds (user + system) of a usage. */
export const cpuOf = (usage: Usage): number => usage.user + usage.system;

function usageOf(stat: string): { name: string } & Usage {
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return { name, faults: Number(fields[7]), user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/** A file of a thread that may have ended meanwhile ("" then). */
function readTask(pid: number, tid: string, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/${file}`, "utf8");
  } catch {
    return "";
  }
}

/** CPU seconds (user + system) a process used so far. */
export function processCpu(pid: number): number {
  return cpuOf(usageOf(readFileSync(`/proc/${pid}/stat`, "utf8")));
}

export function readProcess(pid: number): ProcessReading {
  const byThread = new Map<string, Usage>();
  let lostSlices = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readTask(pid, tid, "stat");
    if (stat === "") continue;
    const usage = usageOf(stat);
    const key = usage.name.replace(/\d+/g, "#");
    const sum = byThread.get(key) ?? NONE;
    byThread.set(key, { user: sum.user + usage.user, system: sum.system + usage.system, faults: sum.faults + usage.faults });
    lostSlices += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(readTask(pid, tid, "status"))?.[1] ?? 0);
  }
  return { total: usageOf(readFileSync(`/proc/${pid}/stat`, "utf8")), byThread, lostSlices };
}

const minus = (a: Usage, b: Usage): Usage => ({ user: a.user - b.user, system: a.system - b.system, faults: a.faults - b.faults });
const plus = (a: Usage, b: Usage): Usage => ({ user: a.user + b.user, system: a.system + b.system, faults: a.faults + b.faults });

/** One line: the processes' CPU (ms user + sys), faults and lost time slices a save between two readings, then by thread name. */
export function breakdown(before: ProcessReading[], after: ProcessReading[], saves: number): string {
  let total = NONE;
  let lostSlices = 0;
  const byThread = new Map<string, Usage>();
  after.forEach((reading, i) => {
    total = plus(total, minus(reading.total, before[i]!.total));
    lostSlices += reading.lostSlices - before[i]!.lostSlices;
    for (const [name, usage] of reading.byThread) byThread.set(name, plus(byThread.get(name) ?? NONE, minus(usage, before[i]!.byThread.get(name) ?? NONE)));
  });
  const counted = [...byThread.values()].reduce((sum, usage) => sum + cpuOf(usage), 0);
  const ms = (seconds: number) => ((seconds / saves) * 1000).toFixed(1);
  const rows = [...byThread].filter(([, usage]) => cpuOf(usage) > 0).sort((a, b) => cpuOf(b[1]) - cpuOf(a[1]));
  return [
    `all ${ms(total.user)} + ${ms(total.system)}, ${(total.faults / saves).toFixed(0)} faults, ${(lostSlices / saves).toFixed(0)} time slices lost`,
    ...rows.map(([name, usage]) => `${name} ${ms(usage.user)} + ${ms(usage.system)}`),
    `ended threads ${ms(cpuOf(total) - counted)}`,
  ].join(" · ");
}
