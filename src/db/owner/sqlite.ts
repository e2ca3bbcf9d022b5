/**
 * The owner's and players' tables over SQLite: the modules written once for both stores (sessions.ts,
 * login-failures.ts, setup-tokens.ts, data-access.ts, watch.ts, nudges.ts; the consumer webhooks', src/db/deliveries/)
 * over SQLite's statements.
 */
import type { TokenSeal } from "../../link-key.ts";
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { OwnerStore } from "../../store/ports/owner.ts";
import type { WatchStore } from "../../store/ports/watch.ts";
import { dataWebhookRegistry } from "../deliveries/data-webhooks.ts";
import { sqliteStatements, sqliteTransaction } from "../dialect/sqlite.ts";
import type { Statements } from "../dialect/statements.ts";
import { replayableCommit, type Db } from "../sqlite/open.ts";
import { catalogueRecords } from "./catalogue.ts";
import { dataAccess } from "./data-access.ts";
import { loginFailureRecords } from "./login-failures.ts";
import { nudgeStore } from "./nudges.ts";
import { sessionRecords } from "./sessions.ts";
import { setupLinks } from "./setup-tokens.ts";
import { watchStore } from "./watch.ts";

/** Sessions and the login throttle commit without waiting for the disk: a power cut at worst logs someone out or forgets a guess. */
function withoutFsync(db: Db): Statements {
  const statements = sqliteStatements(db);
  return {
    all: (query, params) => replayableCommit(db, () => statements.all(query, params)),
    transaction: async (flow) => replayableCommit(db, () => sqliteTransaction(db, flow())),
  };
}

/** `seal`: the link key's (src/link-key.ts), which seals players' links and the setup token. */
export function sqliteOwnerStore(db: Db, seal: TokenSeal): OwnerStore {
  const statements = sqliteStatements(db);
  const unsynced = withoutFsync(db);
  return {
    sessions: sessionRecords(unsynced, seal),
    loginFailures: loginFailureRecords(unsynced),
    links: setupLinks(statements, seal),
    access: dataAccess(statements),
    webhooks: dataWebhookRegistry(statements),
    catalogue: catalogueRecords(statements),
  };
}

export const sqliteWatchStore = (db: Db): WatchStore => watchStore(sqliteStatements(db));
export const sqliteNudgeStore = (db: Db): NudgeStore => nudgeStore(sqliteStatements(db));
