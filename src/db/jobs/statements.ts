/**
 * The jobs table's statements, written once for both stores (src/db/dialect/): the row as the model reads it, the
 * lease predicate (the one test of "this runner still holds this job"), and a holder's fenced change.
 */
import { getTableColumns } from "drizzle-orm";
import { rowOf } from "../dialect/rows.ts";
import { SUBSCRIPTION_KEEP_MS, subscribedPlayer } from "../owner/msr-subscriptions.ts";
import { read, type Param, type Read } from "../dialect/statements.ts";
import { jobs } from "../schema.ts";
import type { JobRow, LeaseHolder, Transition } from "../../store/model/jobs.ts";

/** Every column of a job row under its model name (a new column of the schema comes with it), and how each decodes. */
export const { columns: JOB_COLUMNS, kinds: JOB_KINDS } = rowOf<JobRow>(jobs, "jobs");
const columnName = new Map(Object.entries(getTableColumns(jobs)).map(([key, column]) => [key, column.name]));

/** The lease predicate over parameters $first (job id), $first+1 (lease id), $first+2 (now): held, running, unexpired. */
export const leaseHeld = (first: number) => `jobs.id = $${first} AND jobs.lease_id = $${first + 1} AND jobs.state = 'running' AND jobs.lease_expires_at > $${first + 2}`;

/** Every transition ends the lease; the crash counts start over unless the change keeps them. */
export const transitionSet = (change: Transition, now: number) => ({ processDeaths: 0, crashes: 0, ...change, leaseId: null, leaseExpiresAt: null, updatedAt: now });

const fencedTexts = new Map<string, Read<{ id: number }>>();
/**
 * `UPDATE jobs SET …` the change's columns while the lease is held ($1–$3) and, with `rerun`, while the redraw
 * flag is that ($4); the change's values follow. One statement text per set of columns, made once.
 */
export function fencedChange(holder: LeaseHolder, now: number, change: Record<string, Param | undefined>, rerun?: boolean): { query: Read<{ id: number }>; params: Param[] } {
  // As drizzle's set(): a key whose value is undefined is no change.
  const entries = Object.entries(change).filter((entry): entry is [string, Param] => entry[1] !== undefined);
  const keys = entries.map(([key]) => key);
  const signature = `${keys.join()}|${rerun ?? ""}`;
  let query = fencedTexts.get(signature);
  if (query === undefined) {
    const first = rerun === undefined ? 4 : 5;
    const set = keys.map((key, i) => `${columnName.get(key)} = $${first + i}`).join(", ");
    fencedTexts.set(signature, (query = read(`UPDATE jobs SET ${set} WHERE ${leaseHeld(1)}${rerun === undefined ? "" : " AND jobs.rerun = $4"} RETURNING id`)));
  }
  const fence: Param[] = rerun === undefined ? [holder.jobId, holder.leaseId, now] : [holder.jobId, holder.leaseId, now, rerun];
  return { query, params: [...fence, ...entries.map(([, value]) => value)] };
}

/** The retention rule deletes done save jobs: a save that must run again gets a (done) job row back first. */
export const ENSURE_SAVE_JOB = read(`INSERT INTO jobs (save_id, stage, state, run_at, created_at, updated_at) VALUES ($1, 'done', 'done', $2, $2, $2) ON CONFLICT DO NOTHING`);

/**
 * A new save's first job: `implausible` ($2) saves run after every real one, a subscribed player's (since $3)
 * before others; due at $4. `from` names the saves it is for, as `s` (one by id $1, or a CTE of new saves).
 */
export const enqueueSaveText = (from: string) =>
  `INSERT INTO jobs (save_id, stage, state, implausible, subscribed, run_at, created_at, updated_at)
   SELECT s.id, 'generate', 'pending', $2, ${subscribedPlayer("s.player_id", "$3")}, $4, $4, $4 FROM ${from}`;
/** enqueueSaveText's parameters: the save's id (null where `from` is a CTE of new saves), due at `at`. */
export const enqueueSaveParams = (saveId: number | null, at: number, implausible: boolean): Param[] => [saveId, implausible, at - SUBSCRIPTION_KEEP_MS, at];
