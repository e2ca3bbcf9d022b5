/**
 * The upload rules, the same tests on both stores (SQLite through the group committer, a hub's PostgreSQL), through
 * the upload store's interface: tasks by id and player, resends and reused ids, caps per peer and in all, expiry.
 * The basics (chunk order, races between two processes, reports) are in ingest-store.contract.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { MAX_UPLOAD_BYTES, MIB } from "../../src/contract.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { NO_ORIGIN } from "../../src/store/model/saves.ts";
import { RESEND_LOOKBACK } from "../../src/db/uploads/statements.ts";
import { COMPLETED_UPLOAD_RETENTION_MS } from "../../src/db/uploads/rules.ts";
import type { ChunkOutcome, UploadLimits } from "../../src/store/ports/ingest.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const P1 = "7488393821744390161";
const P2 = "1234567890123456789";
const T0 = 1_800_000_000_000;
const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 3, maxOpenBytes: 100_000, peerShare: 1, mayBeSave: () => true };

interface Send {
  id: string;
  index: number;
  total: number;
  body: Uint8Array;
  /** A real player id, "unknown" (a URL without digits) or null (no X-Original-Url). */
  player?: string | null;
  now?: number;
  limits?: UploadLimits;
  peer?: string;
}

const parts = (n: number, size = 1000) => Array.from({ length: n }, () => new Uint8Array(randomBytes(size)));

describeEachStore("upload rules", (s) => {
  const send = ({ id, index, total, body, player = null, now = T0, limits = LIMITS, peer = "192.0.2.1" }: Send): Promise<ChunkOutcome> =>
    s.stores.uploads.acceptChunk({ header: { uploadId: id, chunkIndex: index, totalChunks: total, originalUrl: null }, body, playerId: player, origin: NO_ORIGIN, peer, now }, limits);
  /** Sends every part of a save as chunks 0..n-1, one after the other, and returns the last outcome. */
  const sendAll = async (id: string, chunks: Uint8Array[], player: string | null = null, now = T0): Promise<ChunkOutcome> => {
    let last: ChunkOutcome | undefined;
    for (const [index, body] of chunks.entries()) last = await send({ id, index, total: chunks.length, body, player, now });
    return last!;
  };
  const savesRows = () => s.stored.saves();
  const saveOf = async (chunks: Uint8Array[]) => (await savesRows()).find((row) => row.sha256 === sha256Hex(Buffer.concat(chunks)));
  const openTasks = () => s.stored.openUploadTasks();
  const chunkRows = () => s.stored.heldChunks();

  describe("resends and reused ids", () => {
    test("a whole upload sent again leaves nothing behind: no save, no open task, no held chunk", async () => {
      const save = parts(3);
      await sendAll("again", save);
      for (const index of [2, 0, 1]) expect(await send({ id: "again", index, total: 3, body: save[index]! })).toMatchObject({ kind: "resend" });
      expect(await savesRows()).toHaveLength(1);
      expect(await openTasks()).toBe(0);
      expect(await chunkRows()).toBe(0);
    });

    test("a new save sharing its first chunks with a completed one (same id) is kept, in order", async () => {
      const [x, y, a2, b2] = parts(4);
      await sendAll("prefix", [x!, y!, a2!]);
      expect(await send({ id: "prefix", index: 0, total: 3, body: x! })).toMatchObject({ kind: "resend" });
      expect(await send({ id: "prefix", index: 1, total: 3, body: y! })).toMatchObject({ kind: "resend" });
      expect(await send({ id: "prefix", index: 2, total: 3, body: b2! })).toMatchObject({ kind: "completed", created: true });
      expect(await saveOf([x!, y!, b2!])).toBeDefined();
      expect(await chunkRows()).toBe(0);
    });

    test("a new save sharing its first chunk is kept when its later chunk comes first", async () => {
      const [x, a1, a2, b1, b2] = parts(5);
      await sendAll("late", [x!, a1!, a2!]);
      expect(await send({ id: "late", index: 2, total: 3, body: b2! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "late", index: 0, total: 3, body: x! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "late", index: 1, total: 3, body: b1! })).toMatchObject({ kind: "completed", created: true });
      expect(await saveOf([x!, b1!, b2!])).toBeDefined();
    });

    test("a stray resend of a later chunk never completes a new save's open task", async () => {
      const [a0, a1, b0, b1] = parts(4);
      await sendAll("stray", [a0!, a1!]);
      expect(await send({ id: "stray", index: 0, total: 2, body: b0! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "stray", index: 1, total: 2, body: a1! })).toMatchObject({ kind: "resend" });
      expect(await send({ id: "stray", index: 1, total: 2, body: b1! })).toMatchObject({ kind: "completed", created: true });
      expect(await saveOf([b0!, b1!])).toBeDefined();
      expect(await savesRows()).toHaveLength(2);
    });

    test("other bytes under a completed id go to a new task and become their own save", async () => {
      const first = parts(2);
      const second = parts(2);
      await sendAll("r2", first);
      expect(await send({ id: "r2", index: 0, total: 2, body: second[0]! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "r2", index: 1, total: 2, body: second[1]! })).toMatchObject({ kind: "completed", created: true });
      expect(await saveOf(first)).toBeDefined();
      expect(await saveOf(second)).toBeDefined();
    });

    test("a fixed id (demo12345) keeps every distinct save, single and chunked", async () => {
      const saves = [parts(1), parts(3), parts(1), parts(2), parts(1)];
      for (const save of saves) expect(await sendAll("demo12345", save, P1)).toMatchObject({ kind: "completed", created: true });
      expect(await savesRows()).toHaveLength(saves.length);
      for (const save of saves) expect((await saveOf(save))?.player).toBe(P1);
    });

    test("a single-chunk resend of a completed single-chunk save is one save", async () => {
      const body = new Uint8Array(randomBytes(500));
      await sendAll("r3", [body]);
      expect(await send({ id: "r3", index: 0, total: 1, body })).toMatchObject({ kind: "resend" });
      expect(await savesRows()).toHaveLength(1);
    });

    test("the same bytes at the index but another total is not a resend", async () => {
      const save = parts(2);
      await sendAll("r4", save);
      expect(await send({ id: "r4", index: 0, total: 1, body: save[0]! })).toMatchObject({ kind: "completed", created: true });
      expect(await saveOf([save[0]!])).toBeDefined();
    });

    test("a resend naming another player, or none, is not a resend of that player's task", async () => {
      const body = new Uint8Array(randomBytes(500));
      await sendAll("r5", [body], P1);
      expect(await send({ id: "r5", index: 0, total: 1, body, player: P2 })).toMatchObject({ kind: "completed", created: false });
      expect(await send({ id: "r5", index: 0, total: 1, body, player: P1 })).toMatchObject({ kind: "resend" });
      expect(await send({ id: "r5", index: 0, total: 1, body, player: null })).toMatchObject({ kind: "completed", created: false });
    });

    test("identical merged bytes under two ids are one save", async () => {
      const save = parts(2);
      await sendAll("d1", save);
      expect(await sendAll("d2", save)).toMatchObject({ kind: "completed", created: false });
      expect(await savesRows()).toHaveLength(1);
    });

    test(`only the latest ${RESEND_LOOKBACK} completed tasks of an id are looked at; an older resend is kept as a task again`, async () => {
      const save = parts(2);
      await sendAll("look", save);
      for (let i = 0; i < RESEND_LOOKBACK - 1; i++) await sendAll("look", parts(1, 16));
      expect(await send({ id: "look", index: 1, total: 2, body: save[1]! })).toMatchObject({ kind: "resend" });
      await sendAll("look", parts(1, 16));
      expect(await send({ id: "look", index: 1, total: 2, body: save[1]! })).toMatchObject({ kind: "partial" });
      expect(await send({ id: "look", index: 0, total: 2, body: save[0]! })).toMatchObject({ kind: "completed", created: false });
    });

    test("a completed task is no longer remembered after 24 h: the same bytes then go through a new task", async () => {
      const save = parts(2);
      await sendAll("r6", save);
      const later = T0 + COMPLETED_UPLOAD_RETENTION_MS + 1;
      expect(await send({ id: "r6", index: 0, total: 2, body: save[0]!, now: later })).toMatchObject({ kind: "partial" });
    });
  });

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
