/** Saves on a hub's PostgreSQL: the flows of ./rules.ts over the network, and the insert as part of one statement. */
import { pgFlow, pgFragment } from "../dialect/pg.ts";
import type { PgTx } from "../pg/open.ts";
import type { NewSave, StoredSave } from "../../store/model/saves.ts";
import { INSERT_ONCE, insertOnceParams, storeSaveOnce } from "./rules.ts";

export const pgStoreSaveOnce = (tx: PgTx, save: NewSave): Promise<StoredSave> => pgFlow(tx, storeSaveOnce(save));

/** The rule's insert as a data-modifying CTE: the new save's `id` and `player_id`, or no row when its sha256 is stored. */
export const pgInsertSaveOnce = (save: NewSave & { sha256: string }) => pgFragment(INSERT_ONCE.sql, insertOnceParams(save));
