/**
 * The job table's one owner: claims, the lease predicate, transitions, retries, requeues and the owner's
 * actions. No other module writes `jobs`.
 */
export { claimJob, holderOf, nextDueAt, type ClaimedJob, type Job, type JobSubject, type ReportSubject, type SaveSubject } from "./sqlite-claim.ts";
export { enqueueReport, enqueueSave, ensureSaveJob, requeueForRedraw } from "./sqlite-enqueue.ts";
export { holdsLease, leaseHeld, LeaseLostError, renewLease, type LeaseHolder } from "./lease.ts";
export { deleteDoneSaveJobs, reclaimOrphans, rejudgePlausibility, releaseRunning, resumeWaitingForKey } from "./sqlite-lifecycle.ts";
export { reprocess, retryFailed } from "./sqlite-owner-actions.ts";
export {
  advanceChange,
  advanceTo,
  afterTaskProcessDied,
  backoffDelay,
  POISON_CRASHES,
  rerunIfFlagged,
  retryChange,
  retryOrFail,
  taskProcessDiedChange,
  transition,
  type Transition,
} from "./transitions.ts";
