/** Saves over SQLite: the rule of ./rules.ts run inside the caller's synchronous transaction. */
import { enqueueSave, requeueForRedraw } from "../jobs/index.ts";
import type { Tx } from "../sqlite/open.ts";
import { sqliteFlow } from "../dialect/sqlite.ts";
import { sqliteRunner } from "../dialect/sqlite-runner.ts";
import { runSteps } from "../dialect/steps.ts";
import type { NewSave, StoredSave } from "../../store/model/saves.ts";
import { saveWithShaSteps, storeSaveOnceSteps, type SaveDialect } from "./rules.ts";

export type { NewSave, StoredSave } from "../../store/model/saves.ts";

export const sqliteSaveDialect = (tx: Tx): SaveDialect => ({
  sql: sqliteRunner(tx),
  enqueueSave: (saveId, at, implausible) => sqliteFlow(tx, enqueueSave(saveId, at, implausible)),
  lockSaveJob: () => undefined,
  requeueForRedraw: (saveId, now) => sqliteFlow(tx, requeueForRedraw(saveId, now)),
});

/** Inserts the save and its generate job, or returns the existing save with the same bytes (an `unknown` one adopts a real player id). */
export function storeSaveOnce(tx: Tx, save: NewSave): StoredSave {
  return runSteps(storeSaveOnceSteps(sqliteSaveDialect(tx), save));
}

/** The save whose encrypted bytes hash to `sha256`, if one was stored. */
export function saveWithSha(tx: Tx, sha256: string): { id: number; playerId: string } | undefined {
  return runSteps(saveWithShaSteps(sqliteRunner(tx), sha256));
}
