/** PostgreSQL's runner for the statements written once (src/db/dialect/steps.ts). */
import type { SqlRunner } from "./steps.ts";
import type { PgDb, PgTx } from "../pg/open.ts";
import { pgFlow } from "./pg.ts";

export const pgRunner = (tx: PgDb | PgTx): SqlRunner => ({
  all: async <T>(query: Parameters<PgTx["execute"]>[0]) => [...(await tx.execute(query))] as T[],
  run: (query) => tx.execute(query),
  flow: (flow) => pgFlow(tx, flow),
});
