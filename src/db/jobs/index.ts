/**
 * The job table's one owner: claims, the lease predicate, transitions, retries, requeues and the owner's
 * actions. No other module writes `jobs`. The records and the changes themselves are src/store/model/jobs.ts's.
 */
export { claimJob, nextDueAt } from "./sqlite-claim.ts";
export { enqueueReport, enqueueSave, requeueForRedraw } from "./sqlite-enqueue.ts";
export { holdsLease, leaseHeld, renewLease } from "./lease.ts";
export { deleteDoneSaveJobs, reclaimOrphans, releaseRunning } from "./sqlite-lifecycle.ts";
export { reprocess, resumeWaitingForKey, retryFailed } from "./sqlite.ts";
export { advanceTo, afterTaskProcessDied, rerunIfFlagged, retryOrFail, transition } from "./transitions.ts";
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
