/**
 * The upload rules, the same tests on both stores (SQLite through the group committer, a hub's PostgreSQL), through
 * the upload store's interface: tasks by id and player, within one open task, caps per peer and in all, expiry.
 * Resends and reused ids are in upload-rules.resends.contract.test.ts; the basics (chunk order, races between two
 * processes, reports) in ingest-store.*.contract.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { MAX_UPLOAD_BYTES, MIB } from "../../src/contract.ts";
import { COMPLETED_UPLOAD_RETENTION_MS } from "../../src/db/uploads/rules.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { LIMITS, P1, P2, parts, T0, uploadRulesFixture } from "../helpers/upload-rules-contract.ts";

describeEachStore("upload rules", (s) => {
  const { send, sendAll, savesRows, saveOf, openTasks, chunkRows } = uploadRulesFixture(s);

  describe("players under one id", () => {
    test("two players' chunks under one id never mix, each completing its own player's save", async () => {
      const a = parts(2);
      const b = parts(2);
      await send({ id: "shared", index: 0, total: 2, body: a[0]!, player: P1 });
      await send({ id: "shared", index: 0, total: 2, body: b[0]!, player: P2 });
      expect(await openTasks()).toBe(2);
      expect(await send({ id: "shared", index: 1, total: 2, body: b[1]!, player: P2 })).toMatchObject({ kind: "completed", playerId: P2 });
      expect(await send({ id: "shared", index: 1, total: 2, body: a[1]!, player: P1 })).toMatchObject({ kind: "completed", playerId: P1 });
      expect((await saveOf(a))?.player).toBe(P1);
      expect((await saveOf(b))?.player).toBe(P2);
    });

    test("a task whose first chunk named no player is joined only by chunks naming none", async () => {
      const save = parts(3);
      await send({ id: "anon3", index: 0, total: 3, body: save[0]!, player: "unknown" });
      expect(await send({ id: "anon3", index: 1, total: 3, body: save[1]!, player: P1 })).toMatchObject({ kind: "partial" });
      expect(await openTasks()).toBe(2);
      await send({ id: "anon3", index: 1, total: 3, body: save[1]!, player: null });
      expect(await openTasks()).toBe(2);
      expect(await send({ id: "anon3", index: 2, total: 3, body: save[2]!, player: "unknown" })).toMatchObject({ kind: "completed", playerId: "unknown" });
    });

    test("without any real player the save is unknown", async () => {
      expect(await sendAll("anon", parts(2))).toMatchObject({ kind: "completed", playerId: "unknown" });
      expect((await savesRows()).map((row) => row.player)).toEqual(["unknown"]);
    });
  });

  describe("within one open task", () => {
    test("a resent index replaces its bytes and the total is recounted", async () => {
      const id = "replace";
      const limits = { ...LIMITS, maxOpenBytes: MIB };
      await send({ id, index: 0, total: 2, body: new Uint8Array(randomBytes(700_000)), limits });
      expect(await send({ id, index: 0, total: 2, body: new Uint8Array(randomBytes(500_000)), limits })).toMatchObject({ kind: "partial", uploadBytes: 500_000 });
      const body = new Uint8Array(randomBytes(MAX_UPLOAD_BYTES - 500_000));
      expect(await send({ id, index: 1, total: 2, body, limits })).toMatchObject({ kind: "completed", saveBytes: MAX_UPLOAD_BYTES });
    });

    test("another total for an open task is refused; a single-chunk upload under its id is a save of its own", async () => {
      await send({ id: "tot", index: 0, total: 3, body: new Uint8Array(randomBytes(10)) });
      expect(await send({ id: "tot", index: 1, total: 4, body: new Uint8Array(randomBytes(10)) })).toEqual({ kind: "total_mismatch", expected: 3 });
      expect(await send({ id: "tot", index: 0, total: 1, body: new Uint8Array(randomBytes(10)) })).toMatchObject({ kind: "completed", created: true });
    });

    test("an upload over 1 MiB in total is too large", async () => {
      const limits = { ...LIMITS, maxOpenBytes: 2 * MIB };
      await send({ id: "big", index: 0, total: 2, body: new Uint8Array(randomBytes(MAX_UPLOAD_BYTES / 2)), limits });
      expect(await send({ id: "big", index: 1, total: 2, body: new Uint8Array(randomBytes(MAX_UPLOAD_BYTES / 2 + 1)), limits })).toMatchObject({ kind: "too_large" });
      expect(await savesRows()).toEqual([]);
    });
  });

  describe("open-upload caps", () => {
    test("at the count cap, chunks of open tasks, completions and single-chunk uploads still pass", async () => {
      const first = parts(3);
      for (let i = 0; i < LIMITS.maxOpen; i++) await send({ id: `full${i}`, index: 0, total: 3, body: i === 0 ? first[0]! : new Uint8Array(randomBytes(10)) });
      expect(await send({ id: "full0", index: 1, total: 3, body: first[1]! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "single", index: 0, total: 1, body: new Uint8Array(randomBytes(50_000)) })).toMatchObject({ kind: "completed" });
      expect(await send({ id: "full0", index: 2, total: 3, body: first[2]! })).toMatchObject({ kind: "completed" });
      expect(await send({ id: "after", index: 0, total: 3, body: new Uint8Array(randomBytes(10)) })).toMatchObject({ kind: "partial" });
    });

    test("open bytes exactly at UPLOAD_MAX_OPEN_MB are accepted, one byte more is refused and nothing is stored", async () => {
      const limits = { ...LIMITS, maxOpen: 100 };
      const bytes = (n: number) => new Uint8Array(randomBytes(n));
      expect(await send({ id: "b1", index: 0, total: 3, body: bytes(60_000), limits })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "b2", index: 0, total: 3, body: bytes(40_000), limits })).toMatchObject({ kind: "partial" });
      const before = await chunkRows();
      expect(await send({ id: "b3", index: 0, total: 3, body: bytes(1), limits, now: T0 + 1 })).toEqual({ kind: "over_cap", reason: "open uploads hold too many bytes (100000); retry later", retryAfterSeconds: 60 });
      expect(await send({ id: "b1", index: 1, total: 3, body: bytes(1), limits })).toMatchObject({ kind: "over_cap" });
      expect(await chunkRows()).toBe(before);
      // A resent index that shrinks its task makes room.
      expect(await send({ id: "b1", index: 0, total: 3, body: bytes(59_999), limits })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "b3", index: 0, total: 3, body: bytes(1), limits })).toMatchObject({ kind: "partial" });
    });

    test("one peer holds at most its share of the open bytes; another peer is served meanwhile", async () => {
      const limits = { ...LIMITS, maxOpen: 100, maxOpenBytes: 4 * MIB, peerShare: 0.5 };
      const from = (peer: string, id: string) => send({ id, index: 0, total: 2, body: new Uint8Array(randomBytes(MIB)), limits, peer });
      expect(await from("198.51.100.7", "b2")).toMatchObject({ kind: "partial" });
      expect(await from("198.51.100.7", "b2b")).toMatchObject({ kind: "partial" });
      expect(await from("198.51.100.7", "b3")).toMatchObject({ kind: "over_cap", reason: `open uploads from your address hold too many bytes (${2 * MIB}); retry later` });
      expect(await from("203.0.113.5", "c1")).toMatchObject({ kind: "partial" });
    });

    test("tasks past the TTL no longer count: the cap frees without waiting for the sweep", async () => {
      for (let i = 0; i < LIMITS.maxOpen; i++) await send({ id: `t${i}`, index: 0, total: 2, body: new Uint8Array(randomBytes(10)) });
      expect(await send({ id: "t-late", index: 0, total: 2, body: new Uint8Array(randomBytes(10)), now: T0 + LIMITS.ttlMs - 1 })).toMatchObject({ kind: "over_cap", retryAfterSeconds: 1 });
      expect(await send({ id: "t-late", index: 0, total: 2, body: new Uint8Array(randomBytes(10)), now: T0 + LIMITS.ttlMs + 1 })).toMatchObject({ kind: "partial" });
    });
  });

  describe("expiry", () => {
    test("open tasks past the TTL are deleted with their chunks; an expired task is never joined", async () => {
      const stale = parts(2);
      await send({ id: "exp", index: 0, total: 2, body: stale[0]! });
      const later = T0 + LIMITS.ttlMs + 1;
      const fresh = parts(2);
      await send({ id: "exp", index: 0, total: 2, body: fresh[0]!, now: later });
      expect(await send({ id: "exp", index: 1, total: 2, body: fresh[1]!, now: later })).toMatchObject({ kind: "completed" });
      expect(await saveOf(fresh)).toBeDefined();
      expect(await s.stores.uploads.expire(later, LIMITS.ttlMs)).toBe(1);
      expect(await openTasks()).toBe(0);
      expect(await chunkRows()).toBe(0);
    });

    test("an open task exactly at the TTL is kept, one past it goes; completed tasks stay 24 h", async () => {
      await send({ id: "keep", index: 0, total: 2, body: new Uint8Array(randomBytes(10)) });
      await sendAll("done", parts(2));
      expect(await s.stores.uploads.expire(T0 + LIMITS.ttlMs, LIMITS.ttlMs)).toBe(0);
      expect(await s.stores.uploads.expire(T0 + LIMITS.ttlMs + 1, LIMITS.ttlMs)).toBe(1);
      expect([await openTasks(), await chunkRows(), await s.stored.uploadTasks()]).toEqual([0, 0, 1]);
      expect(await s.stores.uploads.expire(T0 + COMPLETED_UPLOAD_RETENTION_MS, LIMITS.ttlMs)).toBe(0);
      expect(await s.stores.uploads.expire(T0 + COMPLETED_UPLOAD_RETENTION_MS + 1, LIMITS.ttlMs)).toBe(1);
      expect(await s.stored.uploadTasks()).toBe(0);
    });
  });
});
