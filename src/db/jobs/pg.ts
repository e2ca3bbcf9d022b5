/**
 * The job store over a hub's PostgreSQL: the same flows as SQLite's (queue.ts, transitions.ts, lifecycle.ts,
 * owner-actions.ts; the contract test holds them together). Claims pick with FOR UPDATE SKIP LOCKED (the dialect's
 * skipLocked), so processes claiming at once each take a different job without waiting for one another; a commit
 * that adds work wakes the other processes' pollers (LISTEN here, NOTIFY in the flows); times are bigint ms.
 */
import { sql, type SQL } from "drizzle-orm";
import type { JobStore } from "../../store/ports/jobs.ts";
import { holderOf, type ClaimedJob, type Transition } from "../../store/model/jobs.ts";
import { pgFlow, pgFragment, pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import * as lifecycle from "./lifecycle.ts";
import * as ownerActions from "./owner-actions.ts";
import * as queue from "./queue.ts";
import { enqueueSaveParams, enqueueSaveText, fencedChange, transitionSet } from "./statements.ts";
import { record, transition } from "./transitions.ts";

const { NEW_WORK_CHANNEL } = queue;

export function pgJobStore(db: PgDb): JobStore {
  const statements = pgStatements(db);
  const inTransaction = statements.transaction;
  return {
    // Each one statement (the claim's subjectless failure aside, which needs no transaction around it).
    claim: (now, leaseMs, plausibleOnly) => pgFlow(db, queue.claim(now, leaseMs, plausibleOnly)),
    nextDueAt: () => pgFlow(db, queue.nextDueAt()),
    renew: (holder, now, leaseMs) => pgFlow(db, queue.renewLease(holder, now, leaseMs)),
    holds: (holder, now) => pgFlow(db, queue.holdsLease(holder, now)),
    record: (job, change, now) => pgFlow(db, record(job, change, now)),
    transition: (job, change, now) => pgFlow(db, transition(job, change, now)),
    enqueueSave: (saveId, at, implausible) => inTransaction(() => queue.enqueueSave(saveId, at, implausible)),
    enqueueReport: (reportId, at) => inTransaction(() => queue.enqueueReport(reportId, at)),
    requeueForRedraw: (saveId, now) => inTransaction(() => queue.requeueForRedraw(saveId, now)),
    retryFailed: (now, saveId) => inTransaction(() => ownerActions.retryFailed(now, saveId)),
    reprocess: (saveId, notify, now) => inTransaction(() => ownerActions.reprocess(saveId, notify, now)),
    reclaimAtStart: (now) => pgFlow(db, queue.reclaimOrphans(now, false)),
    resumeWaitingForKey: (now) => inTransaction(() => lifecycle.resumeWaitingForKey(now)),
    rejudgePlausibility: (mayBeSave, now) => inTransaction(() => lifecycle.rejudgePlausibility(mayBeSave, now)),
    // It cannot tell its own running jobs from other processes': their leases expire and another process claims them.
    releaseAtStop: async () => 0,
    listen: async (wake) => {
      // A dedicated connection, reconnected by postgres-js; a notification missed meanwhile waits for the poll.
      const own = pgNotifySender(db);
      const subscription = await db.$client.listen(NEW_WORK_CHANNEL, (sender) => sender !== own && wake());
      return () => subscription.unlisten();
    },
  };
}

/**
 * queue.ts's enqueueSave and its wake-up as parts of one statement over the saves it inserts (`newSaves`, a
 * data-modifying CTE returning `id` and `player_id`), for a request that commits in one round trip (uploads/pg.ts):
 * the rule's own INSERT for another CTE, and an expression for its final SELECT (a CTE nobody reads would not run).
 * The wake-up names its `sender` (pgNotifySender), or is left out (null) when the sender's own free slot takes the job.
 */
export const pgEnqueueSavesFrom = (newSaves: string, at: number, implausible: boolean) => pgFragment(enqueueSaveText(`${newSaves} s`), enqueueSaveParams(null, at, implausible));
export const pgNotifyNewWorkFrom = (newSaves: SQL, sender: string | null) =>
  sender === null ? sql`0` : sql`(SELECT count(*) FROM (SELECT pg_notify(${NEW_WORK_CHANNEL}, ${sender}) FROM ${newSaves}) AS woken)`;

/**
 * transitions.ts's record, its usual case, as a data-modifying CTE for a statement that writes a stage's rows with
 * it: the job's id when the lease is held and no redraw is flagged, no row otherwise (and nothing changed then).
 */
export function pgRecordedChangeSql(job: ClaimedJob, change: Transition, now: number): SQL {
  const { query, params } = fencedChange(holderOf(job), now, transitionSet(change, now), false);
  return pgFragment(query.sql, params);
}

const senders = new WeakMap<object, string>();
/**
 * This process's name on NEW_WORK_CHANNEL (one per database handle: tests run several services in one process).
 * An upload's wake-up carries it, and the sender's own listener skips it: the upload's answer wakes that
 * process's slot already (slot-wakes.ts).
 */
export function pgNotifySender(db: object): string {
  let sender = senders.get(db);
  if (sender === undefined) senders.set(db, (sender = crypto.randomUUID()));
  return sender;
}
