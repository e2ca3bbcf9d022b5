/** Saves over SQLite: the flows of ./rules.ts run inside the caller's synchronous transaction. */
import type { Tx } from "../sqlite/open.ts";
import { sqliteFlow } from "../dialect/sqlite.ts";
import type { NewSave, StoredSave } from "../../store/model/saves.ts";
import * as rules from "./rules.ts";

/** Inserts the save and its generate job, or returns the existing save with the same bytes (an `unknown` one adopts a real player id). */
export const storeSaveOnce = (tx: Tx, save: NewSave): StoredSave => sqliteFlow(tx, rules.storeSaveOnce(save));

/** The save whose encrypted bytes hash to `sha256`, if one was stored. */
export const saveWithSha = (tx: Tx, sha256: string): { id: number; playerId: string } | undefined => sqliteFlow(tx, rules.saveWithSha(sha256));
