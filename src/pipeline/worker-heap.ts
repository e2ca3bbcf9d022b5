import { fullGC } from "bun:jsc";
import { readFileSync } from "node:fs";

/**
 * Above this resident size the collection also hands the allocator's free pages back. A burst of saves keeps
 * the worker busy past MIMALLOC_PURGE_DELAY and its kept pages add up: without a bound the throughput phase
 * reached ~250 MB of the 256 MB target; a save adds ~30 MB at most before the next collection.
 */
export const TRIM_ABOVE_BYTES = 216 * 1024 * 1024;

/** This process' resident size (Linux; 0 where /proc is missing, which never trims). Read in kB, whatever the page size. */
function residentBytes(): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The render worker's collection after each save: it frees the renders' native pixmaps (freed only with their
 * JS wrappers, and the GC does not count native memory). JSC's full collection, not `Bun.gc(true)`: that one
 * also hands the allocator's free pages back at once, so the next save faults them in again (~1,000–1,400
 * more minor faults and ~4–8 ms more CPU a save back to back; docs/benchmarks-history.md, issue 24, fourth step). Kept
 * pages go back after MIMALLOC_PURGE_DELAY (launch-env.ts) once the worker is idle, or here past the bound.
 */
export function collectWorkerHeap(trimAboveBytes = TRIM_ABOVE_BYTES): void {
  if (residentBytes() > trimAboveBytes) Bun.gc(true);
  else fullGC();
}
