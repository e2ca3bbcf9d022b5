/** The owner's and players' tables on a hub's PostgreSQL: the modules written once for both stores (the consumer webhooks' too) over its statements. */
import type { TokenSeal } from "../../link-key.ts";
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { OwnerStore } from "../../store/ports/owner.ts";
import type { WatchStore } from "../../store/ports/watch.ts";
import { dataWebhookRegistry } from "../deliveries/data-webhooks.ts";
import { pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { catalogueRecords } from "./catalogue.ts";
import { dataAccess } from "./data-access.ts";
import { loginFailureRecords } from "./login-failures.ts";
import { nudgeStore } from "./nudges.ts";
import { sessionRecords } from "./sessions.ts";
import { setupLinks } from "./setup-tokens.ts";
import { watchStore } from "./watch.ts";

export function pgOwnerStore(db: PgDb, seal: TokenSeal): OwnerStore {
  const statements = pgStatements(db);
  return { sessions: sessionRecords(statements, seal), loginFailures: loginFailureRecords(statements), links: setupLinks(statements, seal), access: dataAccess(statements), webhooks: dataWebhookRegistry(statements), catalogue: catalogueRecords(statements) };
}

export const pgWatchStore = (db: PgDb): WatchStore => watchStore(pgStatements(db));
export const pgNudgeStore = (db: PgDb): NudgeStore => nudgeStore(pgStatements(db));
