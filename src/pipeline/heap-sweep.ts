/**
 * A full collection on the HTTP thread after every few pipeline jobs. What a stage holds here while it waits on
 * the worker (a save's bytes, its rows and outputs model: ~0.5 MB a save) outlives the young-generation
 * collections and piles up in the old generation, which JSC collects only once it has grown a lot: in a burst of
 * saves, ~10 MB of peak memory. A collection costs ~5 ms, once every 8 jobs (4 saves: generate and notify), and
 * runs only where the pipeline starts its next stage: once uploads and reports are quiet.
 */
export const JOBS_PER_SWEEP = 8;

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
