/** The owner's and players' tables on a hub's PostgreSQL: one module per table, as over SQLite (src/db/owner-store.ts). */
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { OwnerStore } from "../../store/ports/owner.ts";
import type { WatchStore } from "../../store/ports/watch.ts";
import { pgStatements } from "../dialect/pg.ts";
import { nudgeStore } from "./nudges.ts";
import { watchStore } from "./watch.ts";
import { pgDataWebhooks } from "../deliveries/pg-data-webhooks.ts";
import { pgDataAccess } from "./pg-data-access.ts";
import { pgLoginFailureRecords } from "./pg-login-failures.ts";
import type { PgDb } from "../pg/open.ts";
import { pgSessionRecords } from "./pg-sessions.ts";
import { pgSetupLinks } from "./pg-setup-tokens.ts";

export function pgOwnerStore(db: PgDb): OwnerStore {
  return { sessions: pgSessionRecords(db), loginFailures: pgLoginFailureRecords(db), links: pgSetupLinks(db), access: pgDataAccess(db), webhooks: pgDataWebhooks(db) };
}

export const pgWatchStore = (db: PgDb): WatchStore => watchStore(pgStatements(db));
export const pgNudgeStore = (db: PgDb): NudgeStore => nudgeStore(pgStatements(db));
