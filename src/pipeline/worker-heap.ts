import { fullGC } from "bun:jsc";

/**
 * The render worker's collection after each save: it frees the renders' native pixmaps (freed only with their
 * JS wrappers, and the GC does not count native memory). JSC's full collection, not `Bun.gc(true)`: that one
 * also hands the allocator's free pages back to the system at once, so the next save faults them in again
 * (~1,000–1,400 more minor faults and ~4–8 ms more CPU a save back to back; BENCHMARKS.md, issue 24, fourth
 * step). Kept pages go back after MIMALLOC_PURGE_DELAY (launch-env.ts) once the worker is idle.
 */
export function collectWorkerHeap(): void {
  fullGC();
}
