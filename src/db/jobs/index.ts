/**
 * The job table's one owner: claims, the lease predicate, transitions, retries, requeues and the owner's
 * actions, written once as flows (queue.ts, transitions.ts, lifecycle.ts, owner-actions.ts) that each store runs
 * (sqlite.ts, pg.ts). No other module writes `jobs`. The records and the changes themselves are src/store/model/jobs.ts's.
 * Modules of src/db import the flows from their files; this names what SQLite's in-process tests drive.
 */
export { enqueueSave } from "./queue.ts";
export { claimJob, reclaimOrphans, releaseRunning } from "./sqlite.ts";
