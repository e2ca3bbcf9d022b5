/**
 * The retention sweep as the service's timer and `cli gc` use it, async so that a hub's PostgreSQL can stand
 * behind it: the SQLite store (src/db/retention/sqlite.ts) runs the rule in this process, the PostgreSQL one
 * (src/db/retention/pg.ts) runs it only in the process that holds the sweep's advisory lock. Both pass
 * tests/contract/retention-store.contract.test.ts.
 */
export interface RetentionCounts {
  /** Candidate bodies of expired reports. */
  candidates: number;
  /** Expired reports (their evaluate jobs go with them). */
  reports: number;
  /** Done jobs of saves. */
  jobs: number;
  /** Saves that failed and cannot be saves under the configured keys (junk), with their jobs. */
  junkSaves: number;
  deliveries: number;
  /** Archived saves whose encrypted column, outputs model and stored JSON were cleared (save.bin in the archive holds the bytes). */
  clearedSaves: number;
  /** Pages returned to the file system (SQLite; PostgreSQL's autovacuum does its own). */
  vacuumedPages: number;
}

export interface RetentionRound {
  counts: RetentionCounts;
  /** A step stopped at its batch limit: another round has work. */
  more: boolean;
}

export interface RetentionStore {
  /**
   * Applies the retention rule to what finished before `cutoff`, at most `maxBatches` batches per step. Null when
   * another process is sweeping now: N processes on one database sweep one at a time, and the others skip.
   */
  sweep(cutoff: number, maxBatches?: number): Promise<RetentionRound | null>;
}
