/**
 * The job table's one owner: claims, the lease predicate, transitions, retries, requeues and the owner's
 * actions, written once as flows (queue.ts, transitions.ts, lifecycle.ts, owner-actions.ts) that each store runs
 * (sqlite.ts, pg.ts). No other module writes `jobs`. The records and the changes themselves are src/store/model/jobs.ts's.
 */
export { deleteDoneSaveJobs, enqueueReport, enqueueSave, lockSaveJob, requeueForRedraw } from "./queue.ts";
export { claimJob, reclaimOrphans, releaseRunning } from "./sqlite.ts";
export { record, transition } from "./transitions.ts";
export {
  advanceChange,
  backoffDelay,
  holderOf,
  LeaseLostError,
  POISON_CRASHES,
  retryChange,
  taskProcessDiedChange,
  type ClaimedJob,
  type JobRow as Job,
  type JobSubject,
  type LeaseHolder,
  type ReportSubject,
  type SaveSubject,
  type Transition,
} from "../../store/model/jobs.ts";
