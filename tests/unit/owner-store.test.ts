/** The owner's sessions and the login throttle in the store stay bounded, whatever a flood of logins or guesses does. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PEERS } from "../../src/db/owner/login-failures.ts";
import { openDatabase } from "../../src/db/open.ts";
import { sqliteOwnerStore } from "../../src/db/owner/sqlite.ts";
import { MAX_SESSIONS } from "../../src/db/owner/sessions.ts";

const dir = mkdtempSync(join(tmpdir(), "mysk-owner-store-"));
const db = openDatabase(join(dir, "ingest.sqlite"));
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});
const { sessions, loginFailures } = sqliteOwnerStore(db);
const count = (table: string) => (db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

test("past MAX_SESSIONS the session closest to expiry goes first; expired ones go at the next login", async () => {
  const now = 1_000_000;
  for (let i = 0; i < MAX_SESSIONS + 10; i++) await sessions.open(`s${i}`, now + 1000 + i, now);
  expect(count("owner_sessions")).toBe(MAX_SESSIONS);
  expect(await sessions.isOpen("s0", now)).toBe(false);
  expect(await sessions.isOpen(`s${MAX_SESSIONS + 9}`, now)).toBe(true);
  expect(await sessions.isOpen(`s${MAX_SESSIONS + 9}`, now + 1000 + MAX_SESSIONS + 9)).toBe(false);
  await sessions.open("late", now + 10_000_000, now + 5_000_000);
  expect(count("owner_sessions")).toBe(1);
});

test("past MAX_PEERS the peer that failed longest ago is forgotten first; a known peer never evicts another", async () => {
  const now = 2_000_000;
  db.transaction(() => {
    for (let i = 0; i < MAX_PEERS; i++) db.$client.run("INSERT INTO login_failures (peer, failures, last_failure) VALUES (?, 1, ?)", [`p${i}`, now + i]);
  });
  await loginFailures.record("p5", now + MAX_PEERS, 0, () => 2);
  expect(count("login_failures")).toBe(MAX_PEERS);
  expect(await loginFailures.of("p0")).toBeDefined();
  await loginFailures.record("newcomer", now + MAX_PEERS + 1, 0, () => 1);
  expect(count("login_failures")).toBe(MAX_PEERS);
  expect(await loginFailures.of("p0")).toBeUndefined();
  expect(await loginFailures.of("newcomer")).toEqual({ failures: 1, lastFailure: now + MAX_PEERS + 1 });
  await loginFailures.record("newcomer", now + 10 * MAX_PEERS, now + 5 * MAX_PEERS, () => 2);
  expect(count("login_failures")).toBe(1);
});
