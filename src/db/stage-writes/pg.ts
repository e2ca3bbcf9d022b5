/**
 * The stages' writes over a hub's PostgreSQL: the flow of ./rules.ts and the job's fenced change in one
 * transaction. The fence goes first, so a holder that lost its lease takes no other row lock and records nothing.
 */
import { sql } from "drizzle-orm";
import { record } from "../jobs/transitions.ts";
import type { ClaimedJob, Transition } from "../../store/model/jobs.ts";
import type { Recorded, StageStore, StageWrites } from "../../store/ports/stage-writes.ts";
import { pgRecordedChangeSql } from "../jobs/pg.ts";
import { pgFlow, pgFragment, pgStatements } from "../dialect/pg.ts";
import { PG } from "../dialect/primitives.ts";
import type { PgDb } from "../pg/open.ts";
import { drawnParams, drawnText } from "../saves/rules.ts";
import { archiveRowParams, archiveRowUpsert, recordStage } from "./rules.ts";
import { stageReads } from "./reads.ts";

export function pgStageStore(db: PgDb): StageStore {
  return {
    // Every commit waits for the disk here: `durable` is SQLite's choice. Without rows to write, the fenced
    // change alone needs no transaction around it (one statement, or two for a redraw, as the job store records).
    record: async (job, writes, change, now) => {
      if (writes === undefined) return { moved: await pgFlow(db, record(job, change, now)) };
      if (writes.kind === "drawn" && (await recordDrawnAtOnce(db, job, writes, change, now))) return { moved: "recorded" };
      return recordInTransaction(db, job, writes, change, now);
    },
    ...stageReads(pgStatements(db)),
  };
}

/** The rule (./rules.ts recordStage) in one transaction. */
export const recordInTransaction = (db: PgDb, job: ClaimedJob, writes: StageWrites, change: Transition, now: number): Promise<Recorded> =>
  pgStatements(db).transaction(() => recordStage(job, writes, change, now));

/** The fence's condition inside the statement below. */
const HELD = "EXISTS (SELECT 1 FROM fence)";
const DRAWN_IF_HELD = drawnText(HELD);
const ARCHIVE_ROW_IF_HELD = archiveRowUpsert(HELD)(PG);

/**
 * generate's record in one statement (one round trip, no BEGIN or COMMIT): the fenced change first, then the
 * rule's own writes of the save's outputs and its archives row (./rules.ts's texts), each only if the fence held.
 * Whether it held; when not (the lease is lost, or a redraw was flagged) nothing was written, and the transaction
 * decides. tests/contract/drawn-fast-path.contract.test.ts runs both on the same inputs and compares every column.
 */
export async function recordDrawnAtOnce(db: PgDb, job: ClaimedJob, writes: Extract<StageWrites, { kind: "drawn" }>, change: Transition, now: number): Promise<boolean> {
  const { saveId, outputs, dropsFingerprint, archive } = writes;
  const [row] = await db.execute<{ fenced: number }>(sql`
    WITH fence AS (${pgRecordedChangeSql(job, change, now)}),
    drawn AS (${pgFragment(DRAWN_IF_HELD, drawnParams(saveId, outputs, dropsFingerprint))}),
    archived AS (${pgFragment(ARCHIVE_ROW_IF_HELD, archiveRowParams(saveId, archive, now))})
    SELECT count(*)::int AS fenced FROM fence`);
  return row!.fenced === 1;
}
