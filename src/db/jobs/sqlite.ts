/**
 * The job store over SQLite: the flows of this folder (queue.ts, transitions.ts, lifecycle.ts, owner-actions.ts)
 * run synchronously, each call one transaction on the event loop's thread (no async callback ever reaches
 * db.transaction). Claims and renewals commit without waiting for the disk, as the runner's do (replayableCommit).
 */
import type { JobStore } from "../../store/ports/jobs.ts";
import { sqliteFlow, sqliteTransaction } from "../dialect/sqlite.ts";
import { replayableCommit, type Db } from "../sqlite/open.ts";
import * as lifecycle from "./lifecycle.ts";
import * as ownerActions from "./owner-actions.ts";
import * as queue from "./queue.ts";
import { record, transition } from "./transitions.ts";

/** Claims a job (queue.ts) on its own: for SQLite's tests and harness, which drive the runner's steps by hand. */
export const claimJob = (db: Db, now: number, leaseMs: number, plausibleOnly = false) => sqliteFlow(db, queue.claim(now, leaseMs, plausibleOnly));
/** At start-up every `running` job belongs to a service that died without shutting down (a clean shutdown releases its jobs). */
export const reclaimOrphans = (db: Db, now: number) => sqliteFlow(db, queue.reclaimOrphans(now, true));
export const releaseRunning = (db: Db, now: number) => sqliteFlow(db, queue.releaseRunning(now));

export function sqliteJobStore(db: Db): JobStore {
  return {
    claim: async (now, leaseMs, plausibleOnly) => replayableCommit(db, () => claimJob(db, now, leaseMs, plausibleOnly)),
    nextDueAt: async () => sqliteFlow(db, queue.nextDueAt()),
    renew: async (holder, now, leaseMs) => replayableCommit(db, () => sqliteFlow(db, queue.renewLease(holder, now, leaseMs))),
    holds: async (holder, now) => sqliteFlow(db, queue.holdsLease(holder, now)),
    record: async (job, change, now) => sqliteTransaction(db, record(job, change, now)),
    transition: async (job, change, now) => sqliteTransaction(db, transition(job, change, now)),
    enqueueSave: async (saveId, at, implausible) => sqliteTransaction(db, queue.enqueueSave(saveId, at, implausible)),
    enqueueReport: async (reportId, at) => sqliteTransaction(db, queue.enqueueReport(reportId, at)),
    requeueForRedraw: async (saveId, now) => sqliteTransaction(db, queue.requeueForRedraw(saveId, now)),
    retryFailed: async (now, saveId) => sqliteTransaction(db, ownerActions.retryFailed(now, saveId)),
    reprocess: async (saveId, notify, now) => sqliteTransaction(db, ownerActions.reprocess(saveId, notify, now)),
    reclaimAtStart: async (now) => reclaimOrphans(db, now),
    resumeWaitingForKey: async (now) => sqliteTransaction(db, lifecycle.resumeWaitingForKey(now)),
    rejudgePlausibility: async (mayBeSave, now) => sqliteTransaction(db, lifecycle.rejudgePlausibility(mayBeSave, now)),
    releaseAtStop: async (now) => releaseRunning(db, now),
    listen: async () => async () => {},
  };
}
