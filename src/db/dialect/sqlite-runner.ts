/** SQLite's runner for the statements written once (src/db/dialect/steps.ts): synchronous, inside the caller's transaction. */
import type { Tx } from "../sqlite/open.ts";
import { sqliteFlow } from "./sqlite.ts";
import type { SqlRunner } from "./steps.ts";

export const sqliteRunner = (tx: Tx): SqlRunner => ({ all: (query) => tx.all(query), run: (query) => tx.run(query), flow: (flow) => sqliteFlow(tx, flow) });
