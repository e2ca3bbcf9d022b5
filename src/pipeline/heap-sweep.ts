/**
 * A full collection on the HTTP thread after every few pipeline jobs. What a stage holds here while it waits on
 * the worker (a save's bytes, its rows and outputs model: ~0.5 MB a save) outlives the young-generation
 * collections and piles up in the old generation, which JSC collects only once it has grown a lot: in a burst of
 * saves, ~10 MB of peak memory. A collection costs ~5 ms, once every 8 jobs (4 saves: generate and notify).
 */
export const JOBS_PER_SWEEP = 8;

export function heapSweeper(every = JOBS_PER_SWEEP, collect: () => void = () => Bun.gc(true)): () => void {
  let jobs = 0;
  return () => {
    jobs++;
    if (jobs % every === 0) collect();
  };
}
