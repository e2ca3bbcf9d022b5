/**
 * One owner per table: the job table is written by src/db/jobs/ alone (claims, leases, transitions, requeues), the
 * deliveries and consumer webhooks by src/db/deliveries/ alone (but for the retention sweeps' bulk deletes), each
 * other owner table by its one module, written once for both stores (src/db/owner/<module>.ts over src/db/dialect/).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "../../src");
const JOB_WRITES = /\b(?:insert|update|delete)\(jobs\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) jobs\b/;
const DELIVERY_WRITES = /\b(?:insert|update|delete)\((?:deliveries|dataWebhooks)\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) (?:deliveries|data_webhooks)\b/;
/** Delete the rows of saves past the retention rule, every table alike, in batches: written once for both stores. */
const RETENTION_SWEEPS = ["db/retention/statements.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The source files under `dir` (all of src/ by default) whose text matches `re`, as paths relative to src/. */
function filesMatching(re: RegExp, dir = SRC): string[] {
  return sourceFiles(dir)
    .filter((path) => re.test(readFileSync(path, "utf8")))
    .map((path) => relative(SRC, path));
}

test("no module outside src/db/jobs/ writes the jobs table", () => {
  const writers = filesMatching(JOB_WRITES).filter((path) => !path.startsWith("db/jobs/"));
  expect(writers).toEqual([]);
});

test("the job module itself is seen writing (the pattern matches real writes)", () => {
  const owners = filesMatching(JOB_WRITES, join(SRC, "db/jobs"));
  expect(owners.length).toBeGreaterThan(3);
});

test("no module outside src/db/deliveries/ writes the deliveries or the consumer webhooks, but the retention sweep", () => {
  const writers = filesMatching(DELIVERY_WRITES).filter((path) => !path.startsWith("db/deliveries/"));
  // The sweep's delete of old deliveries is written once for both stores, with the retention rule.
  expect(writers.sort()).toEqual(RETENTION_SWEEPS);
  const owners = filesMatching(DELIVERY_WRITES, join(SRC, "db/deliveries"));
  expect(owners.sort()).toEqual(["db/deliveries/data-webhooks.ts", "db/deliveries/owner-actions.ts", "db/deliveries/push-decision.ts", "db/deliveries/rows.ts"]);
});

test("the archives rows are written by the stage stores only, but the retention sweeps (which drop save.json from their files)", () => {
  const writes = /\b(?:insert|update|delete)\(archives\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) archives\b/;
  const writers = filesMatching(writes);
  // PostgreSQL's one-statement record embeds the rule's own text (src/db/stage-writes/pg.ts): no second INSERT.
  expect(writers.sort()).toEqual(["db/stage-writes/rules.ts", ...RETENTION_SWEEPS].sort());
});

test("the bucket folder claims are written by the stage stores only", () => {
  const writes = /\b(?:insert|update|delete)\(archiveFolders\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) archive_folders\b/;
  const writers = filesMatching(writes);
  expect(writers.sort()).toEqual(["db/stage-writes/rules.ts"]);
});

test("a hub's API rate counts are written by their store only", () => {
  const writes = /\b(?:insert|update|delete)\(apiRateWindows\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) api_rate_windows\b/;
  const writers = filesMatching(writes);
  expect(writers).toEqual(["db/owner/pg-rate-windows.ts"]);
});

test("the API rate counts' stores, one per deployment, live beside each other in src/db/owner/ (none in src/http/)", () => {
  const makesStore = /\)\s*:\s*RateWindows\s*\{/;
  const stores = filesMatching(makesStore);
  expect(stores.sort()).toEqual(["db/owner/memory-rate-windows.ts", "db/owner/pg-rate-windows.ts"]);
});

/**
 * drizzle's name and SQL's name of each of the owner's and players' tables, and the module written once for both
 * stores (over src/db/dialect/) that owns it: src/db/<module>.ts (a hub's one-statement PUT of lunabot's lists,
 * src/db/owner/pg-msr-subscriptions.ts, embeds that module's texts: no second INSERT).
 */
const OWNER_TABLES = [
  { table: "ownerSessions", sql: "owner_sessions", module: "owner/sessions" },
  { table: "loginFailures", sql: "login_failures", module: "owner/login-failures" },
  { table: "settings", sql: "settings", module: "owner/setup-tokens" },
  { table: "players", sql: "players", module: "owner/setup-tokens" },
  { table: "apiTokens", sql: "api_tokens", module: "owner/data-access" },
  { table: "publicPlayers", sql: "public_players", module: "owner/data-access" },
  { table: "watchRules", sql: "watch_rules", module: "owner/watch" },
  { table: "watchMatches", sql: "watch_matches", module: "owner/watch" },
  { table: "nudgePlayers", sql: "nudge_players", module: "owner/nudges" },
  { table: "nudges", sql: "nudges", module: "owner/nudges" },
  { table: "msrSubscriptions", sql: "msr_subscriptions", module: "owner/msr-subscriptions" },
  { table: "msrSubscriptionPlayers", sql: "msr_subscription_players", module: "owner/msr-subscriptions" },
];

describe("owner tables", () => {
  for (const { table, sql, module } of OWNER_TABLES) {
    const owner = `db/${module}.ts`;
    test(`${sql} is written by ${owner} only`, () => {
      const writes = new RegExp(`\\b(?:insert|update|delete)\\(${table}\\)|\\b(?:INSERT INTO|UPDATE|DELETE FROM) ${sql}\\b`);
      const writers = filesMatching(writes);
      expect(writers).toEqual([owner]);
    });
  }
});

/**
 * drizzle's and SQL's name of each table written from one area folder of src/db/ alone (its statements written
 * once and each dialect's own, together one owner; the retention sweeps run its sweep statements).
 */
const AREA_TABLES = [
  { table: "uploads", sql: "upload_tasks", area: "uploads" },
  { table: "uploadChunks", sql: "upload_task_chunks", area: "uploads" },
  { table: "reports", sql: "reports", area: "uploads" },
  { table: "reportCandidates", sql: "report_candidates", area: "uploads" },
  { table: "saves", sql: "saves", area: "saves" },
];

describe("area tables", () => {
  for (const { table, sql, area } of AREA_TABLES) {
    test(`${sql} is written from src/db/${area}/ only`, () => {
      // drizzle's builders, SQL text, and SQL over drizzle's table object (`UPDATE ${saves}`).
      const writes = new RegExp(`\\b(?:insert|update|delete)\\(${table}\\)|\\b(?:INSERT INTO|UPDATE|DELETE FROM) (?:${sql}\\b|\\$\\{${table}\\})`);
      const writers = filesMatching(writes);
      expect(writers.filter((path) => !path.startsWith(`db/${area}/`))).toEqual([]);
      expect(writers.some((path) => path.startsWith(`db/${area}/`))).toBe(true);
    });
  }
});
