/**
 * The owner store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. Two
 * stores on one database stand for two processes of a hub: what one writes, the other answers. Owner sessions and
 * the login throttle.
 */
import { beforeEach, expect, test } from "bun:test";
import { Hono } from "hono";
import { MAX_PEERS } from "../../src/db/owner/login-failures.ts";
import { MAX_SESSIONS } from "../../src/db/owner/sessions.ts";
import { delayAfter, FREE_FAILURES, StoredLoginAttempts } from "../../src/http/admin/login-throttle.ts";
import { SessionStore } from "../../src/http/admin/sessions.ts";
import type { OwnerStore } from "../../src/store/ports/owner.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const T0 = 1_700_000_000_000;

/** The owner's session routes over a store, as each process builds them. */
function sessionApp(store: OwnerStore) {
  const sessions = new SessionStore(store.sessions);
  const app = new Hono();
  app.post("/open", async (c) => (await sessions.open(c), c.text("opened")));
  app.get("/valid", async (c) => c.text(String(await sessions.valid(c))));
  app.post("/close", async (c) => (await sessions.close(c), c.text("closed")));
  return (path: string, cookie = "") => app.request(path, { method: path === "/valid" ? "GET" : "POST", headers: { cookie } });
}

describeEachStore("owner store", (s) => {
  let store: OwnerStore;
  beforeEach(() => void (store = s.stores.owner));
  const another = async () => (await s.another()).owner;
  /** What a table holds: hashes in place of secrets, and the tables' bounds, are the subject here. */
  const tableRows = (table: Parameters<typeof s.stored.everyRowOf>[0]) => s.stored.everyRowOf(table);
  const seedLoginFailures = (count: number, at: number) => s.stored.seedLoginFailures(count, at);

  test("a session opened on one process opens on another, logout on either ends it everywhere; only its sha256 is stored", async () => {
    const [one, two] = [sessionApp(store), sessionApp(await another())];
    const cookie = (await one("/open")).headers.get("set-cookie")!.split(";")[0]!;
    const id = cookie.split("=")[1]!;
    expect(await (await two("/valid", cookie)).text()).toBe("true");
    expect(await (await one("/valid", cookie)).text()).toBe("true");
    const otherId = `${id.slice(0, -1)}${id.endsWith("A") ? "E" : "A"}`;
    expect(await (await two("/valid", `${cookie.split("=")[0]}=${otherId}`)).text()).toBe("false");
    expect(await tableRows("owner_sessions")).toEqual([{ id_hash: sha256Hex(id), expires_at: expect.any(Number) }]);
    await two("/close", cookie);
    expect(await (await one("/valid", cookie)).text()).toBe("false");
    expect(await tableRows("owner_sessions")).toEqual([]);
  });

  test("every session ends at once, on every process; a session's hash is bound to the ADMIN_TOKEN in force", async () => {
    const other = await another();
    await store.sessions.open("a", T0 + 9_000, T0);
    await store.sessions.open("b", T0 + 9_000, T0);
    expect(await other.sessions.closeAll()).toBe(2);
    expect(await store.sessions.isOpen("a", T0 + 1)).toBe(false);
    expect(await tableRows("owner_sessions")).toEqual([]);
    const [under, after] = [new SessionStore(store.sessions, "token-one-0000"), new SessionStore(store.sessions, "token-two-0000")];
    const app = new Hono();
    app.post("/open", async (c) => (await under.open(c), c.text("opened")));
    app.get("/under", async (c) => c.text(String(await under.valid(c))));
    app.get("/after", async (c) => c.text(String(await after.valid(c))));
    const cookie = (await app.request("/open", { method: "POST" })).headers.get("set-cookie")!.split(";")[0]!;
    expect(await (await app.request("/under", { headers: { cookie } })).text()).toBe("true");
    expect(await (await app.request("/after", { headers: { cookie } })).text()).toBe("false");
  });

  test("a change of ADMIN_TOKEN seen at a start ends every session, so a token changed back revives none; only a keyed fingerprint is kept", async () => {
    const other = await another();
    await store.sessions.open("before", T0 + 9_000, T0);
    expect(await store.sessions.endIfTokenChanged("owner-token-A-1234567890", T0)).toBe(1);
    await store.sessions.open("a", T0 + 9_000, T0);
    expect(await other.sessions.endIfTokenChanged("owner-token-A-1234567890", T0)).toBe(0);
    expect(await store.sessions.isOpen("a", T0 + 1)).toBe(true);
    expect(await other.sessions.endIfTokenChanged("owner-token-B-0987654321", T0)).toBe(1);
    expect(await store.sessions.isOpen("a", T0 + 1)).toBe(false);
    await store.sessions.open("b", T0 + 9_000, T0);
    expect(await store.sessions.endIfTokenChanged("owner-token-A-1234567890", T0)).toBe(1);
    expect(await other.sessions.isOpen("b", T0 + 1)).toBe(false);
    const kept = JSON.stringify(await tableRows("settings"));
    for (const secret of ["owner-token-A-1234567890", sha256Hex("owner-token-A-1234567890")]) expect(kept).not.toContain(secret);
  });

  test("a session ends at its expiry; expired ones are dropped at the next login", async () => {
    await store.sessions.open("a", T0 + 1_000, T0);
    expect(await store.sessions.isOpen("a", T0 + 999)).toBe(true);
    expect(await store.sessions.isOpen("a", T0 + 1_000)).toBe(false);
    await store.sessions.open("b", T0 + 9_000, T0 + 2_000);
    expect((await tableRows("owner_sessions")).map((row) => row.id_hash)).toEqual(["b"]);
  });

  test("past MAX_SESSIONS the session closest to expiry goes first", async () => {
    for (let i = 0; i < MAX_SESSIONS + 10; i++) await store.sessions.open(`s${i}`, T0 + 1_000 + i, T0);
    expect((await tableRows("owner_sessions")).length).toBe(MAX_SESSIONS);
    expect(await store.sessions.isOpen("s9", T0)).toBe(false);
    expect(await store.sessions.isOpen("s10", T0)).toBe(true);
    expect(await store.sessions.isOpen(`s${MAX_SESSIONS + 9}`, T0)).toBe(true);
  });

  test("logins on two processes at once never pass MAX_SESSIONS", async () => {
    for (let i = 0; i < MAX_SESSIONS - 1; i++) await store.sessions.open(`s${i}`, T0 + 1_000 + i, T0);
    const other = await another();
    await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? store : other).sessions.open(`late${i}`, T0 + 10_000 + i, T0)));
    expect((await tableRows("owner_sessions")).length).toBe(MAX_SESSIONS);
    for (let i = 0; i < 16; i++) expect(await other.sessions.isOpen(`late${i}`, T0)).toBe(true);
  });

  test("the login throttle counts a peer's wrong tokens across processes; a right one on either clears it", async () => {
    const [one, two] = [new StoredLoginAttempts(store.loginFailures), new StoredLoginAttempts((await another()).loginFailures)];
    for (let i = 0; i < FREE_FAILURES; i++) await (i % 2 === 0 ? one : two).failed("peer", T0);
    expect(await one.waitMs("peer", T0)).toBe(1_000);
    expect(await two.waitMs("peer", T0)).toBe(1_000);
    expect(await two.waitMs("other peer", T0)).toBe(0);
    await two.succeeded("peer");
    expect(await one.waitMs("peer", T0)).toBe(0);
  });

  test("the delay doubles after each further failure, up to its cap, and a success clears it (fake clock)", async () => {
    const attempts = new StoredLoginAttempts(store.loginFailures);
    let now = 1_000_000;
    for (let i = 0; i < FREE_FAILURES - 1; i++) await attempts.failed("p", now);
    expect(await attempts.waitMs("p", now)).toBe(0);
    await attempts.failed("p", now);
    expect(await attempts.waitMs("p", now)).toBe(1000);
    now += 1000;
    expect(await attempts.waitMs("p", now)).toBe(0);
    await attempts.failed("p", now);
    expect(await attempts.waitMs("p", now)).toBe(2000);
    now += 2000;
    await attempts.failed("p", now);
    expect(await attempts.waitMs("p", now)).toBe(4000);
    expect(delayAfter(40)).toBe(15 * 60 * 1000);
    expect(await attempts.waitMs("q", now)).toBe(0);
    await attempts.succeeded("p");
    expect(await attempts.waitMs("p", now)).toBe(0);
  });

  test("wrong tokens arriving at once on two processes are each counted", async () => {
    const other = await another();
    const guesses = 24;
    await Promise.all(Array.from({ length: guesses }, (_, i) => new StoredLoginAttempts((i % 2 === 0 ? store : other).loginFailures).failed("peer", T0)));
    expect((await store.loginFailures.of("peer"))?.failures).toBe(guesses);
  });

  test("past MAX_PEERS the peer that failed longest ago is forgotten first; a known peer never evicts another; stale ones go", async () => {
    await seedLoginFailures(MAX_PEERS, T0);
    await store.loginFailures.record("p5", T0 + MAX_PEERS, 0, (current) => (current?.failures ?? 0) + 1);
    expect((await tableRows("login_failures")).length).toBe(MAX_PEERS);
    expect(await store.loginFailures.of("p0")).toBeDefined();
    expect(await store.loginFailures.of("p5")).toEqual({ failures: 2, lastFailure: T0 + MAX_PEERS });
    await store.loginFailures.record("newcomer", T0 + MAX_PEERS + 1, 0, () => 1);
    expect((await tableRows("login_failures")).length).toBe(MAX_PEERS);
    expect(await store.loginFailures.of("p0")).toBeUndefined();
    expect(await store.loginFailures.of("newcomer")).toEqual({ failures: 1, lastFailure: T0 + MAX_PEERS + 1 });
    await store.loginFailures.record("newcomer", T0 + 10 * MAX_PEERS, T0 + 5 * MAX_PEERS, (current) => (current?.failures ?? 0) + 1);
    expect(await tableRows("login_failures")).toEqual([{ peer: "newcomer", failures: 1, last_failure: T0 + 10 * MAX_PEERS }]);
  });
});
