/** Both schemas' deliveries and consumer webhook rows are src/store/model/deliveries.ts's (checked by `npx tsc --noEmit`). */
import { expect, test } from "bun:test";
import type { dataWebhooks as pgDataWebhooks, deliveries as pgDeliveries } from "../../src/db/pg/schema.ts";
import type { dataWebhooks as sqliteDataWebhooks, deliveries as sqliteDeliveries } from "../../src/db/schema.ts";
import type { DataWebhook, Delivery } from "../../src/store/model/deliveries.ts";
import { fits, type Same } from "../helpers/model-fit.ts";

test("SQLite's and PostgreSQL's deliveries and data_webhooks rows are the model's", () => {
  const deliveries: [Same<typeof sqliteDeliveries.$inferSelect, Delivery>, Same<typeof pgDeliveries.$inferSelect, Delivery>] = [true, true];
  const hooks: [Same<typeof sqliteDataWebhooks.$inferSelect, DataWebhook>, Same<typeof pgDataWebhooks.$inferSelect, DataWebhook>] = [true, true];
  expect(fits(...deliveries, ...hooks)).toBe(4);
});
