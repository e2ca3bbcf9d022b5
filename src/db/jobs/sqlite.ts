/**
 * The job store over SQLite: the synchronous functions of this module, each call one transaction on the
 * event loop's thread (no async callback ever reaches db.transaction). Claims and renewals commit without
 * waiting for the disk, as the runner's do (replayableCommit).
 */
import type { JobStore } from "../../store/ports/jobs.ts";
import { replayableCommit, type Db, type Tx } from "../open.ts";
import { claimJob, nextDueAt } from "./sqlite-claim.ts";
import { enqueueReport, enqueueSave, requeueForRedraw } from "./sqlite-enqueue.ts";
import { holdsLease, renewLease } from "./lease.ts";
import { reclaimOrphans, releaseRunning } from "./sqlite-lifecycle.ts";
import * as lifecycle from "./lifecycle.ts";
import { sqliteTransaction } from "../dialect/sqlite.ts";
import * as ownerActions from "./owner-actions.ts";
import { rerunIfFlagged, transition } from "./transitions.ts";

/** The owner's retry (jobs/owner-actions.ts), as one synchronous transaction. */
export const retryFailed = (db: Db, now: number, saveId?: number) => sqliteTransaction(db, ownerActions.retryFailed(now, saveId));
/** The owner's reprocess (jobs/owner-actions.ts), as one synchronous transaction. */
export const reprocess = (db: Db, saveId: number, notify: boolean, now: number) => sqliteTransaction(db, ownerActions.reprocess(saveId, notify, now));

/** Jobs that waited for a key are due again (jobs/lifecycle.ts), as one synchronous transaction. */
export const resumeWaitingForKey = (db: Db, now: number) => sqliteTransaction(db, lifecycle.resumeWaitingForKey(now));

export function sqliteJobStore(db: Db): JobStore {
  // `body` is one of the synchronous functions below: db.transaction runs it to the end before returning.
  const write = async <T>(body: (tx: Tx) => T): Promise<T> => db.transaction(body, { behavior: "immediate" });
  return {
    claim: async (now, leaseMs, plausibleOnly) => replayableCommit(db, () => claimJob(db, now, leaseMs, plausibleOnly)),
    nextDueAt: async () => nextDueAt(db),
    renew: async (holder, now, leaseMs) => replayableCommit(db, () => renewLease(db, holder, now, leaseMs)),
    holds: async (holder, now) => holdsLease(db, holder, now),
    record: (job, change, now) =>
      write((tx) => {
        if (rerunIfFlagged(tx, job, now)) return "redraw";
        transition(tx, job, change, now);
        return "recorded";
      }),
    transition: (job, change, now) => write((tx) => transition(tx, job, change, now)),
    enqueueSave: (saveId, at, implausible) => write((tx) => enqueueSave(tx, saveId, at, implausible)),
    enqueueReport: (reportId, at) => write((tx) => enqueueReport(tx, reportId, at)),
    requeueForRedraw: (saveId, now) => write((tx) => requeueForRedraw(tx, saveId, now)),
    retryFailed: async (now, saveId) => retryFailed(db, now, saveId),
    reprocess: async (saveId, notify, now) => reprocess(db, saveId, notify, now),
    reclaimAtStart: async (now) => reclaimOrphans(db, now),
    resumeWaitingForKey: async (now) => resumeWaitingForKey(db, now),
    rejudgePlausibility: async (mayBeSave, now) => sqliteTransaction(db, lifecycle.rejudgePlausibility(mayBeSave, now)),
    releaseAtStop: async (now) => releaseRunning(db, now),
    listen: async () => async () => {},
  };
}
