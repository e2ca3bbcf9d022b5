/** Free space on DATA_DIR, read with statfs every few seconds (never per request), against the configured floor. */
import { statfsSync } from "node:fs";
import { MIB } from "./contract.ts";
import { logInfo, logWarn } from "./log.ts";

export interface DiskWatch {
  /** True while the last reading was below the floor. */
  isFull: () => boolean;
  /** The last reading of DATA_DIR's filesystem (null before the first successful one) and the floor. */
  reading: () => { freeBytes: number; totalBytes: number } | null;
  floorBytes: number;
  stop: () => void;
}

export function watchDiskSpace(dir: string, minFreeBytes: number, intervalMs = 5000): DiskWatch {
  let full = false;
  let last: { freeBytes: number; totalBytes: number } | null = null;
  const check = () => {
    let free: number;
    try {
      const stats = statfsSync(dir);
      free = stats.bavail * stats.bsize;
      last = { freeBytes: free, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      logWarn("SERVER", "cannot read free disk space; keeping the last reading", { error: String(error).slice(0, 200) });
      return;
    }
    const below = free < minFreeBytes;
    if (below === full) return;
    full = below;
    const fields = { freeMb: Math.floor(free / MIB), floorMb: Math.round(minFreeBytes / MIB) };
    if (below) logWarn("SERVER", "free disk space below MIN_FREE_DISK_MB: new uploads and reports get 507", fields);
    else logInfo("SERVER", "free disk space above MIN_FREE_DISK_MB again: accepting uploads and reports", fields);
  };
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return { isFull: () => full, reading: () => last, floorBytes: minFreeBytes, stop: () => clearInterval(timer) };
}
