/**
 * Consumer webhooks: where to tell a bot that a player has a new save. The one owner of `data_webhooks`, written
 * once for both stores (src/db/dialect/); their deliveries are rows of `deliveries` (rows.ts), channel
 * DATA_WEBHOOK_CHANNEL (src/store/model/deliveries.ts), target the hook's id.
 */
import { rowOf } from "../dialect/rows.ts";
import { read, run, type Flow, type Statements } from "../dialect/statements.ts";
import { dataWebhooks } from "../schema.ts";
import { EMPTY_POST, type DataWebhook } from "../../store/model/deliveries.ts";
import type { DataWebhookRegistry } from "../../store/ports/owner.ts";

const HOOK = rowOf<DataWebhook>(dataWebhooks, "h");
const ADD = read<{ id: number }>(`INSERT INTO data_webhooks (url, bearer, payload, check_url, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`, { id: "int" });
const REMOVE = read<{ id: number }>(`DELETE FROM data_webhooks WHERE id = $1 RETURNING id`);
const LIST = read<DataWebhook>(`SELECT ${HOOK.columns} FROM data_webhooks h ORDER BY h.id`, HOOK.kinds);
const BY_ID = read<DataWebhook>(`SELECT ${HOOK.columns} FROM data_webhooks h WHERE h.id = $1`, HOOK.kinds);

/** The consumer webhook a data-webhook delivery targets; undefined once removed. */
export function* dataWebhookById(id: number): Flow<DataWebhook | undefined> {
  return (yield* run(BY_ID, [id]))[0];
}

export const dataWebhookRegistry = (statements: Statements): DataWebhookRegistry => ({
  add: async (url, bearer, now = Date.now(), carries = EMPTY_POST) => (await statements.all(ADD, [url, bearer, carries.payload, carries.checkUrl, now]))[0]!.id,
  remove: async (id) => (await statements.all(REMOVE, [id])).length === 1,
  list: () => statements.all(LIST, []),
});
