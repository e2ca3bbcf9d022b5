/**
 * What a lease holder does with its job, written once for both stores (src/db/dialect/): move it to the next
 * stage, retry it later, fail or park it. The rules (which change each outcome makes) are src/store/model/jobs.ts's.
 */
import { run, type Flow } from "../dialect/statements.ts";
import { holderOf, LeaseLostError, redrawChange, type ClaimedJob, type Transition } from "../../store/model/jobs.ts";
import { fencedChange, transitionSet } from "./statements.ts";

/** The change applied while the lease is held (and, given `rerun`, while the redraw flag is that): whether it was. */
export function* fenced(job: ClaimedJob, change: Transition, now: number, rerun?: boolean): Flow<boolean> {
  const { query, params } = fencedChange(holderOf(job), now, transitionSet(change, now), rerun);
  return (yield* run(query, params)).length === 1;
}

/** Applies a transition only while the lease is held; throws LeaseLostError otherwise (rolling back a transaction around it). */
export function* transition(job: ClaimedJob, change: Transition, now: number): Flow<void> {
  if (!(yield* fenced(job, change, now))) throw new LeaseLostError(job.id);
}

/**
 * Records a stage's outcome; a save flagged for redraw meanwhile (`rerun`: it took a real player id while this
 * stage ran, and its maps show the id) goes back to generate. Throws LeaseLostError when the lease is not held. One
 * statement in the usual case, needing no transaction around it: the flag only goes from false to true while the
 * job runs, and each UPDATE reads it on the row's latest version after the row lock (which requeueForRedraw also
 * takes), so a flag set between the two is caught by the second.
 */
export function* record(job: ClaimedJob, change: Transition, now: number): Flow<"recorded" | "redraw"> {
  if (yield* fenced(job, change, now, false)) return "recorded";
  if (yield* fenced(job, redrawChange(now), now, true)) return "redraw";
  throw new LeaseLostError(job.id);
}
