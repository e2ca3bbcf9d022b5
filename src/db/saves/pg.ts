/** Saves on a hub's PostgreSQL: the rule of ./rules.ts over the network, and the insert as part of one statement. */
import { sql } from "drizzle-orm";
import { enqueueSave, lockSaveJob, requeueForRedraw } from "../jobs/index.ts";
import { pgFlow } from "../dialect/pg.ts";
import type { PgTx } from "../pg/open.ts";
import { pgRunner } from "../dialect/pg-runner.ts";
import { runStepsAsync } from "../dialect/steps.ts";
import type { NewSave, StoredSave } from "../../store/model/saves.ts";
import { saveStatements, storeSaveOnceSteps, type SaveDialect } from "./rules.ts";

export const pgSaveDialect = (tx: PgTx): SaveDialect => ({
  sql: pgRunner(tx),
  enqueueSave: (saveId, at, implausible) => pgFlow(tx, enqueueSave(saveId, at, implausible)),
  lockSaveJob: (saveId) => pgFlow(tx, lockSaveJob(saveId)),
  requeueForRedraw: (saveId, now) => pgFlow(tx, requeueForRedraw(saveId, now)),
});

export function pgStoreSaveOnce(tx: PgTx, save: NewSave): Promise<StoredSave> {
  return runStepsAsync(storeSaveOnceSteps(pgSaveDialect(tx), save));
}

/**
 * The insert of ./rules.ts as SQL for a data-modifying CTE: the new save's `id`, or no row when its sha256 is stored.
 * The bytes go as base64 text, a third less on the wire than postgres-js's bytea hex.
 */
export function pgInsertSaveOnce(save: NewSave & { sha256: string }) {
  const { encrypted } = save;
  const base64 = Buffer.from(encrypted.buffer, encrypted.byteOffset, encrypted.byteLength).toString("base64");
  return saveStatements.insertOnce(save, sql`decode(${base64}, 'base64')`, sql`id, player_id`);
}
