/**
 * A full collection on the HTTP thread after every few pipeline jobs. What a stage holds here while it waits on
 * the worker (a save's bytes, its rows and outputs model: ~0.5 MB a save) outlives the young-generation
 * collections and piles up in the old generation, which JSC collects only once it has grown a lot: in a burst of
 * saves, ~10 MB of peak memory. A collection costs ~5–10 ms, once every 16 jobs (8 saves: generate and notify),
 * and runs only where the pipeline starts its next stage: once uploads and reports are quiet. Every 8 jobs it was
 * ~15 % of the HTTP thread's samples and each one found only ~0.8–1.5 MB of JS heap to free (docs/benchmarks-history.md,
 * session 33): twice that between collections is ~2 MB more at the peak for half the cost.
 */
export const JOBS_PER_SWEEP = 16;

export class HeapSweeper {
  private jobsSinceSweep = 0;

  constructor(
    private readonly every = JOBS_PER_SWEEP,
    private readonly collect: () => void = () => Bun.gc(true),
  ) {}

  jobDone(): void {
    this.jobsSinceSweep++;
  }

  /** Collects if `every` jobs finished since the last collection. */
  sweepIfDue(): void {
    if (this.jobsSinceSweep < this.every) return;
    this.jobsSinceSweep = 0;
    this.collect();
  }
}
