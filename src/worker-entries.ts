/**
 * Every Worker entry the service starts, project-relative. The one-file build (scripts/build-binary.ts) bundles
 * each of them; a worker missing from this list would fail to start in the binary.
 */
export const WORKER_ENTRIES = {
  render: "src/pipeline/worker.ts",
  checkpoint: "src/db/sqlite/checkpoint-worker.ts",
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;
