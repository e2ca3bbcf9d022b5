/**
 * Consumer webhooks: where to tell a bot that a player has a new save. The one owner of `data_webhooks`; their
 * deliveries are rows of `deliveries` (rows.ts), channel DATA_WEBHOOK_CHANNEL (src/store/model/deliveries.ts), target the hook's id.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../open.ts";
import { dataWebhooks } from "../schema.ts";

import { EMPTY_POST, type DataWebhook } from "../../store/model/deliveries.ts";

export function addDataWebhook(db: Db, url: string, bearer: string | null, now = Date.now(), carries = EMPTY_POST): number {
  return db.insert(dataWebhooks).values({ url, bearer, ...carries, createdAt: now }).returning({ id: dataWebhooks.id }).get()!.id;
}

export function removeDataWebhook(db: Db, id: number): boolean {
  return db.delete(dataWebhooks).where(eq(dataWebhooks.id, id)).returning({ id: dataWebhooks.id }).all().length === 1;
}

export function listDataWebhooks(db: Db): DataWebhook[] {
  return db.select().from(dataWebhooks).orderBy(asc(dataWebhooks.id)).all();
}

export function dataWebhookById(db: Db, id: number): DataWebhook | undefined {
  return db.select().from(dataWebhooks).where(eq(dataWebhooks.id, id)).get();
}
