/** The owner's and players' tables on a hub's PostgreSQL: one module per table, as over SQLite (src/db/owner-store.ts). */
import type { OwnerStore } from "../../http/owner-store.ts";
import { pgDataWebhooks } from "../deliveries/pg-data-webhooks.ts";
import { pgDataAccess } from "./data-access.ts";
import { pgLoginFailureRecords } from "./login-failures.ts";
import type { PgDb } from "./open.ts";
import { pgSessionRecords } from "./owner-sessions.ts";
import { pgSetupLinks } from "./setup-tokens.ts";

export function pgOwnerStore(db: PgDb): OwnerStore {
  return { sessions: pgSessionRecords(db), loginFailures: pgLoginFailureRecords(db), links: pgSetupLinks(db), access: pgDataAccess(db), webhooks: pgDataWebhooks(db) };
}
