/**
 * The control of issue 39's last target, with no store and no service: the maps of one save (generate and render,
 * as the pipeline's worker and render pool do) drawn `--sets` times after `--warm` sets, by one process running two
 * at a time, then by two processes running one each: on one core, then on the machine's cores (the two on cores of
 * their own). Same work, same code, same launch settings (src/launch-env.ts); what differs is only whether two
 * address spaces take turns on a core. Prints CPU (user + system) and minor faults a set, each process's own.
 *
 *   bun bench/shared-core.ts [--sets=120] [--warm=60] [--runs=2]
 *
 * Each child runs `--child` (below): it warms up, says it is ready, waits for the go, then draws its share.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { LAUNCH_ENV } from "../src/launch-env.ts";
import { generateOutputs } from "../src/maps/index.ts";
import { makeSampleMySekaiSave } from "../src/samples/index.ts";
import { intArg } from "./lib.ts";

const sets = intArg("sets", 120);
const warm = intArg("warm", 60);
const runs = intArg("runs", 2);

interface SetCost {
  cpuMs: number;
  sysMs: number;
  faults: number;
}

function usage(): { cpu: number; sys: number; faults: number } {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return { cpu: (Number(fields[11]) + Number(fields[12])) / 100, sys: Number(fields[12]) / 100, faults: Number(fields[7]) };
}

async function child(lanes: number, count: number, folder: string): Promise<void> {
  const save = makeSampleMySekaiSave({ seed: 1 });
  const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans" as const, showHarvested: false, assetsDir: null, timeZone: "Asia/Shanghai" };
  for (let i = 0; i < warm; i++) await generateOutputs(save, ctx);
  writeFileSync(join(folder, `ready-${process.pid}`), "");
  while (!existsSync(join(folder, "go"))) await Bun.sleep(5);
  const before = usage();
  await Promise.all(Array.from({ length: lanes }, async () => {
    for (let i = 0; i < count / lanes; i++) await generateOutputs(save, ctx);
  }));
  const after = usage();
  const cost: SetCost = { cpuMs: ((after.cpu - before.cpu) / count) * 1000, sysMs: ((after.sys - before.sys) / count) * 1000, faults: (after.faults - before.faults) / count };
  writeFileSync(join(folder, `cost-${process.pid}`), JSON.stringify(cost));
}

/** Starts one child per entry of `cores` (a taskset core list each), all drawing at once; each one's cost a set. */
async function measure(cores: string[], lanes: number): Promise<SetCost[]> {
  const folder = mkdtempSync(join(tmpdir(), "shared-core-"));
  try {
    const children = cores.map((core) =>
      Bun.spawn(["taskset", "-c", core, process.execPath, import.meta.path, "--child", String(lanes), String(sets / cores.length), folder], {
        env: { ...process.env, ...LAUNCH_ENV },
        stdout: "inherit",
        stderr: "inherit",
      }),
    );
    const ready = () => children.every((proc) => existsSync(join(folder, `ready-${proc.pid}`)));
    while (!ready()) {
      if (children.some((proc) => proc.exitCode !== null)) throw new Error("a child ended before it was ready");
      await Bun.sleep(20);
    }
    writeFileSync(join(folder, "go"), "");
    for (const proc of children) if ((await proc.exited) !== 0) throw new Error(`child ${proc.pid} failed`);
    return children.map((proc) => JSON.parse(readFileSync(join(folder, `cost-${proc.pid}`), "utf8")) as SetCost);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const cell = (costs: SetCost[]) => costs.map((cost) => `${cost.cpuMs.toFixed(1)} (${cost.sysMs.toFixed(1)} sys, ${cost.faults.toFixed(0)} faults)`).join(" · ");
const mean = (costs: SetCost[]) => costs.reduce((sum, cost) => sum + cost.cpuMs, 0) / costs.length;

if (process.argv[2] === "--child") {
  await child(Number(process.argv[3]), Number(process.argv[4]), process.argv[5]!);
} else {
  if (availableParallelism() < 2) throw new Error("needs two cores");
  console.log(`${sets} sets of maps (the sample save) after ${warm} sets of warm-up a process; CPU ms a set`);
  console.log("| run | where | one process, two at a time | two processes, one at a time each | two ÷ one |");
  console.log("|---|---|---|---|---|");
  for (let run = 1; run <= runs; run++) {
    for (const [where, one, two] of [
      ["one core", ["1"], ["1", "1"]],
      ["two cores", ["0-1"], ["0", "1"]],
    ] as const) {
      const alone = await measure([...one], 2);
      const pair = await measure([...two], 1);
      console.log(`| ${run} | ${where} | ${cell(alone)} | ${cell(pair)} | ${(mean(pair) / mean(alone)).toFixed(3)} |`);
    }
  }
}
