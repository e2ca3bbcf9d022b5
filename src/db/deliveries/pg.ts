/**
 * The delivery store over a hub's PostgreSQL (store.ts; the contract test holds it to SQLite's). A push decision takes
 * the player's advisory lock (push-decision.ts), where SQLite's immediate transactions serialise every writer; an
 * attempt or part is claimed after the job's lease is extended, in two statements with no transaction around them
 * (two round trips, not four: see rows.ts).
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { pgFlow, pgStatements } from "../dialect/pg.ts";
import type { Flow } from "../dialect/statements.ts";
import type { PgDb } from "../pg/open.ts";
import { deliveryStore } from "./store.ts";

export function pgDeliveryStore(db: PgDb): DeliveryStore {
  const { transaction } = pgStatements(db);
  const onConnection = <T>(flow: Flow<T>) => pgFlow(db, flow);
  return deliveryStore({ one: onConnection, several: onConnection, atomic: (flow) => transaction(() => flow) });
}
