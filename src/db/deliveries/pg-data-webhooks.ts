/**
 * Consumer webhooks' registrations on a hub's PostgreSQL, the same rows as SQLite's (sqlite-data-webhooks.ts); the
 * notify stage reads a hook through the delivery store (pg.ts).
 */
import { asc, eq } from "drizzle-orm";
import type { DataWebhookRegistry } from "../../store/ports/owner.ts";
import type { PgDb } from "../pg/open.ts";
import { dataWebhooks } from "../pg/schema.ts";
import { EMPTY_POST } from "../../store/model/deliveries.ts";

export function pgDataWebhooks(db: PgDb): DataWebhookRegistry {
  return {
    add: async (url, bearer, now = Date.now(), carries = EMPTY_POST) => (await db.insert(dataWebhooks).values({ url, bearer, ...carries, createdAt: now }).returning({ id: dataWebhooks.id }))[0]!.id,
    remove: async (id) => (await db.delete(dataWebhooks).where(eq(dataWebhooks.id, id)).returning({ id: dataWebhooks.id })).length === 1,
    list: () => db.select().from(dataWebhooks).orderBy(asc(dataWebhooks.id)),
  };
}
