/** The owner's sessions and the login throttle in the store stay bounded, whatever a flood of logins or guesses does. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PEERS, loginFailuresOf, recordLoginFailures } from "../../src/db/owner/sqlite-login-failures.ts";
import { openDatabase } from "../../src/db/open.ts";
import { MAX_SESSIONS, openSession, sessionOpen } from "../../src/db/owner/sqlite-sessions.ts";

const dir = mkdtempSync(join(tmpdir(), "mysk-owner-store-"));
const db = openDatabase(join(dir, "ingest.sqlite"));
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});
const count = (table: string) => (db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

test("past MAX_SESSIONS the session closest to expiry goes first; expired ones go at the next login", () => {
  const now = 1_000_000;
  for (let i = 0; i < MAX_SESSIONS + 10; i++) openSession(db, `s${i}`, now + 1000 + i, now);
  expect(count("owner_sessions")).toBe(MAX_SESSIONS);
  expect(sessionOpen(db, "s0", now)).toBe(false);
  expect(sessionOpen(db, `s${MAX_SESSIONS + 9}`, now)).toBe(true);
  expect(sessionOpen(db, `s${MAX_SESSIONS + 9}`, now + 1000 + MAX_SESSIONS + 9)).toBe(false);
  openSession(db, "late", now + 10_000_000, now + 5_000_000);
  expect(count("owner_sessions")).toBe(1);
});

test("past MAX_PEERS the peer that failed longest ago is forgotten first; a known peer never evicts another", () => {
  const now = 2_000_000;
  db.transaction(() => {
    for (let i = 0; i < MAX_PEERS; i++) db.$client.run("INSERT INTO login_failures (peer, failures, last_failure) VALUES (?, 1, ?)", [`p${i}`, now + i]);
  });
  recordLoginFailures(db, "p5", 2, now + MAX_PEERS, 0);
  expect(count("login_failures")).toBe(MAX_PEERS);
  expect(loginFailuresOf(db, "p0")).toBeDefined();
  recordLoginFailures(db, "newcomer", 1, now + MAX_PEERS + 1, 0);
  expect(count("login_failures")).toBe(MAX_PEERS);
  expect(loginFailuresOf(db, "p0")).toBeUndefined();
  expect(loginFailuresOf(db, "newcomer")).toEqual({ failures: 1, lastFailure: now + MAX_PEERS + 1 });
  recordLoginFailures(db, "newcomer", 2, now + 10 * MAX_PEERS, now + 5 * MAX_PEERS);
  expect(count("login_failures")).toBe(1);
});
