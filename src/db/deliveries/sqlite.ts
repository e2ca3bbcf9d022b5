/**
 * The delivery store over SQLite (store.ts): its flows run synchronously, a write in its own immediate transaction on
 * the event loop's thread (no async callback ever reaches db.transaction).
 */
import type { DeliveryStore } from "../../store/ports/deliveries.ts";
import { sqliteFlow, sqliteTransaction } from "../dialect/sqlite.ts";
import type { Flow } from "../dialect/statements.ts";
import type { Db } from "../sqlite/open.ts";
import { deliveryStore } from "./store.ts";

export function sqliteDeliveryStore(db: Db): DeliveryStore {
  const inTransaction = async <T>(flow: Flow<T>) => sqliteTransaction(db, flow);
  return deliveryStore({ one: async (flow) => sqliteFlow(db, flow), several: inTransaction, atomic: inTransaction });
}
