/** The processes of a hub bench run (bench/hub.ts): pinning them to cores, finding this run's stores' servers and their CPU. */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { processCpu } from "./thread-cpu.ts";

/** Every thread of `pid` (and what it starts later) runs on `cores` only. */
export function pin(pid: number, cores: string): void {
  const result = Bun.spawnSync(["taskset", "-a", "-p", "-c", cores, String(pid)], { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`taskset ${pid}: ${result.stderr.toString().trim()}`);
}

/**
 * This run's stores (other sessions may run their own): the PostgreSQL listening on `pgPort` and its backends, and
 * the Swift servers and memcached started in the folder whose proxy.conf binds `swiftPort`.
 */
export function storePids(pgPort: number, swiftPort: number): number[] {
  const pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
  const read = (pid: number, what: string) => {
    try {
      return readFileSync(`/proc/${pid}/${what}`, "utf8");
    } catch {
      return ""; // gone meanwhile, or not ours to read
    }
  };
  const postmaster = pids.find((pid) => read(pid, "cmdline").includes(`\0-p\0${pgPort}\0`));
  const parentOf = (pid: number) => Number(read(pid, "stat").split(") ")[1]?.split(" ")[1]);
  const inSwift = (pid: number) => {
    try {
      return readFileSync(`${readlinkSync(`/proc/${pid}/cwd`)}/proxy.conf`, "utf8").includes(`bind_port = ${swiftPort}\n`);
    } catch {
      return false;
    }
  };
  // Swift's servers chdir away: they are found as children of the supervisor shell, which stays in the folder.
  return pids.filter((pid) => pid === postmaster || parentOf(pid) === postmaster || inSwift(pid) || inSwift(parentOf(pid)));
}

/** CPU seconds so far of this run's stores. */
export function storesCpuSeconds(pgPort: number, swiftPort: number): number {
  return storePids(pgPort, swiftPort).reduce((total, pid) => {
    try {
      return total + processCpu(pid);
    } catch {
      return total; // gone meanwhile
    }
  }, 0);
}
