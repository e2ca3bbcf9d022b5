/** The upload rules in-process on a temp SQLite: tasks by id and player, resends, caps and expiry. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, secretsOf } from "../../src/config/index.ts";
import { MAX_UPLOAD_BYTES, MIB } from "../../src/contract.ts";
import { openDatabase, type Db } from "../../src/db/open.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { RESEND_LOOKBACK } from "../../src/db/uploads/statements.ts";
import { acceptChunk, COMPLETED_UPLOAD_RETENTION_MS, expireUploads, type ChunkOutcome, type UploadLimits } from "../../src/db/uploads/sqlite.ts";

const P1 = "7488393821744390161";
const P2 = "1234567890123456789";
const T0 = 1_800_000_000_000;
const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 3, maxOpenBytes: 100_000, peerShare: 1, mayBeSave: () => true };

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "upload-rules-"));
  db = openDatabase(join(dir, "ingest.sqlite"));
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

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

function send({ id, index, total, body, player = null, now = T0, limits = LIMITS, peer = "192.0.2.1" }: Send): ChunkOutcome {
  const chunk = { header: { uploadId: id, chunkIndex: index, totalChunks: total, originalUrl: null }, body, playerId: player, peer, now };
  return db.transaction((tx) => acceptChunk(tx, chunk, limits));
}

/** Sends every part of a save as chunks 0..n-1 and returns the last outcome. */
function sendAll(id: string, parts: Uint8Array[], player: string | null = null, now = T0): ChunkOutcome {
  let last: ChunkOutcome | undefined;
  parts.forEach((body, index) => (last = send({ id, index, total: parts.length, body, player, now })));
  return last!;
}

const parts = (n: number, size = 1000) => Array.from({ length: n }, () => randomBytes(size));
const savesRows = () => db.$client.query("SELECT sha256, player_id AS player FROM saves ORDER BY id").all() as { sha256: string; player: string }[];
const saveOf = (chunks: Uint8Array[]) => savesRows().find((row) => row.sha256 === sha256Hex(Buffer.concat(chunks)));
const openTasks = () => db.$client.query("SELECT count(*) AS n FROM upload_tasks WHERE completed_at IS NULL").get() as { n: number };
const chunkRows = () => (db.$client.query("SELECT count(*) AS n FROM upload_task_chunks").get() as { n: number }).n;

describe("resends and reused ids", () => {
  test("a resent chunk with the same bytes after completion is a resend: nothing new", () => {
    const save = parts(2);
    expect(sendAll("r1", save)).toMatchObject({ kind: "completed", created: true });
    expect(send({ id: "r1", index: 1, total: 2, body: save[1]! })).toMatchObject({ kind: "resend" });
    expect(send({ id: "r1", index: 0, total: 2, body: save[0]! })).toMatchObject({ kind: "resend" });
    expect(savesRows()).toHaveLength(1);
    expect(openTasks().n).toBe(0);
  });

  test("a whole upload sent again leaves nothing behind: no save, no open task, no held chunk", () => {
    const save = parts(3);
    sendAll("again", save);
    for (const index of [2, 0, 1]) expect(send({ id: "again", index, total: 3, body: save[index]! })).toMatchObject({ kind: "resend" });
    expect(savesRows()).toHaveLength(1);
    expect(openTasks().n).toBe(0);
    expect(chunkRows()).toBe(0);
  });

  test("a new save sharing its first chunks with a completed one (same id) is kept, in order", () => {
    const [x, y, a2, b2] = parts(4);
    sendAll("prefix", [x!, y!, a2!]);
    expect(send({ id: "prefix", index: 0, total: 3, body: x! })).toMatchObject({ kind: "resend" });
    expect(send({ id: "prefix", index: 1, total: 3, body: y! })).toMatchObject({ kind: "resend" });
    expect(send({ id: "prefix", index: 2, total: 3, body: b2! })).toMatchObject({ kind: "completed", created: true });
    expect(saveOf([x!, y!, b2!])).toBeDefined();
    expect(chunkRows()).toBe(0);
  });

  test("a new save sharing its first chunk is kept when its later chunk comes first", () => {
    const [x, a1, a2, b1, b2] = parts(5);
    sendAll("late", [x!, a1!, a2!]);
    expect(send({ id: "late", index: 2, total: 3, body: b2! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "late", index: 0, total: 3, body: x! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "late", index: 1, total: 3, body: b1! })).toMatchObject({ kind: "completed", created: true });
    expect(saveOf([x!, b1!, b2!])).toBeDefined();
  });

  test("a stray resend of a later chunk never completes a new save's open task", () => {
    const [a0, a1, b0, b1] = parts(4);
    sendAll("stray", [a0!, a1!]);
    expect(send({ id: "stray", index: 0, total: 2, body: b0! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "stray", index: 1, total: 2, body: a1! })).toMatchObject({ kind: "resend" });
    expect(send({ id: "stray", index: 1, total: 2, body: b1! })).toMatchObject({ kind: "completed", created: true });
    expect(saveOf([b0!, b1!])).toBeDefined();
    expect(savesRows()).toHaveLength(2);
  });

  test("other bytes under a completed id go to a new task and become their own save", () => {
    const first = parts(2);
    const second = parts(2);
    sendAll("r2", first);
    expect(send({ id: "r2", index: 0, total: 2, body: second[0]! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "r2", index: 1, total: 2, body: second[1]! })).toMatchObject({ kind: "completed", created: true });
    expect(saveOf(first)).toBeDefined();
    expect(saveOf(second)).toBeDefined();
  });

  test("a fixed id (demo12345) keeps every distinct save, single and chunked", () => {
    const saves = [parts(1), parts(3), parts(1), parts(2), parts(1)];
    for (const save of saves) expect(sendAll("demo12345", save, P1)).toMatchObject({ kind: "completed", created: true });
    expect(savesRows()).toHaveLength(saves.length);
    for (const save of saves) expect(saveOf(save)?.player).toBe(P1);
  });

  test("a single-chunk resend of a completed single-chunk save is one save", () => {
    const body = randomBytes(500);
    sendAll("r3", [body]);
    expect(send({ id: "r3", index: 0, total: 1, body })).toMatchObject({ kind: "resend" });
    expect(savesRows()).toHaveLength(1);
  });

  test("the same bytes at the index but another total is not a resend", () => {
    const save = parts(2);
    sendAll("r4", save);
    expect(send({ id: "r4", index: 0, total: 1, body: save[0]! })).toMatchObject({ kind: "completed", created: true });
    expect(saveOf([save[0]!])).toBeDefined();
  });

  test("a resend naming another player, or none, is not a resend of that player's task", () => {
    const body = randomBytes(500);
    sendAll("r5", [body], P1);
    expect(send({ id: "r5", index: 0, total: 1, body, player: P2 })).toMatchObject({ kind: "completed", created: false });
    expect(send({ id: "r5", index: 0, total: 1, body, player: P1 })).toMatchObject({ kind: "resend" });
    expect(send({ id: "r5", index: 0, total: 1, body, player: null })).toMatchObject({ kind: "completed", created: false });
  });

  test("identical merged bytes under two ids are one save", () => {
    const save = parts(2);
    sendAll("d1", save);
    expect(sendAll("d2", save)).toMatchObject({ kind: "completed", created: false });
    expect(savesRows()).toHaveLength(1);
  });

  test(`only the latest ${RESEND_LOOKBACK} completed tasks of an id are looked at; an older resend is kept as a task again`, () => {
    const save = parts(2);
    sendAll("look", save);
    for (let i = 0; i < RESEND_LOOKBACK - 1; i++) sendAll("look", parts(1, 16));
    expect(send({ id: "look", index: 1, total: 2, body: save[1]! })).toMatchObject({ kind: "resend" });
    sendAll("look", parts(1, 16));
    expect(send({ id: "look", index: 1, total: 2, body: save[1]! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "look", index: 0, total: 2, body: save[0]! })).toMatchObject({ kind: "completed", created: false });
  });

  test("a completed task is no longer remembered after 24 h: the same bytes then go through a new task", () => {
    const save = parts(2);
    sendAll("r6", save);
    const later = T0 + COMPLETED_UPLOAD_RETENTION_MS + 1;
    expect(send({ id: "r6", index: 0, total: 2, body: save[0]!, now: later })).toMatchObject({ kind: "partial" });
  });
});

describe("players under one id", () => {
  test("two players' chunks under one id never mix", () => {
    const a = parts(2);
    const b = parts(2);
    send({ id: "shared", index: 0, total: 2, body: a[0]!, player: P1 });
    send({ id: "shared", index: 0, total: 2, body: b[0]!, player: P2 });
    expect(openTasks().n).toBe(2);
    expect(send({ id: "shared", index: 1, total: 2, body: b[1]!, player: P2 })).toMatchObject({ kind: "completed", playerId: P2 });
    expect(send({ id: "shared", index: 1, total: 2, body: a[1]!, player: P1 })).toMatchObject({ kind: "completed", playerId: P1 });
    expect(saveOf(a)?.player).toBe(P1);
    expect(saveOf(b)?.player).toBe(P2);
  });

  test("a chunk without a URL never joins a player's task: a stranger cannot complete a player's upload", () => {
    const a = parts(2);
    send({ id: "demo12345", index: 0, total: 2, body: a[0]!, player: P1, now: T0 });
    expect(send({ id: "demo12345", index: 1, total: 2, body: randomBytes(16), player: null, now: T0 + 1 })).toMatchObject({ kind: "partial" });
    expect(send({ id: "demo12345", index: 1, total: 2, body: a[1]!, player: P1, now: T0 + 2 })).toMatchObject({ kind: "completed", playerId: P1 });
    expect(saveOf(a)?.player).toBe(P1);
  });

  test("a task whose first chunk named no player is joined only by chunks naming none", () => {
    const save = parts(3);
    send({ id: "anon3", index: 0, total: 3, body: save[0]!, player: "unknown" });
    expect(send({ id: "anon3", index: 1, total: 3, body: save[1]!, player: P1 })).toMatchObject({ kind: "partial" });
    expect(openTasks().n).toBe(2);
    send({ id: "anon3", index: 1, total: 3, body: save[1]!, player: null });
    expect(openTasks().n).toBe(2);
    expect(send({ id: "anon3", index: 2, total: 3, body: save[2]!, player: "unknown" })).toMatchObject({ kind: "completed", playerId: "unknown" });
  });

  test("without any real player the save is unknown", () => {
    expect(sendAll("anon", parts(2))).toMatchObject({ kind: "completed", playerId: "unknown" });
  });
});

describe("within one open task", () => {
  test("a resent index replaces its bytes and the total is recounted", () => {
    const id = "replace";
    const limits = { ...LIMITS, maxOpenBytes: MIB };
    send({ id, index: 0, total: 2, body: randomBytes(700_000), limits });
    expect(send({ id, index: 0, total: 2, body: randomBytes(500_000), limits })).toMatchObject({ kind: "partial", uploadBytes: 500_000 });
    const body = randomBytes(MAX_UPLOAD_BYTES - 500_000);
    expect(send({ id, index: 1, total: 2, body, limits })).toMatchObject({ kind: "completed", saveBytes: MAX_UPLOAD_BYTES });
  });

  test("another total for an open task is refused; a single-chunk upload under its id is a save of its own", () => {
    send({ id: "tot", index: 0, total: 3, body: randomBytes(10) });
    expect(send({ id: "tot", index: 1, total: 4, body: randomBytes(10) })).toEqual({ kind: "total_mismatch", expected: 3 });
    expect(send({ id: "tot", index: 0, total: 1, body: randomBytes(10) })).toMatchObject({ kind: "completed", created: true });
  });

  test("an upload over 1 MiB in total is too large", () => {
    const limits = { ...LIMITS, maxOpenBytes: 2 * MIB };
    send({ id: "big", index: 0, total: 2, body: randomBytes(MAX_UPLOAD_BYTES / 2), limits });
    expect(send({ id: "big", index: 1, total: 2, body: randomBytes(MAX_UPLOAD_BYTES / 2 + 1), limits })).toMatchObject({ kind: "too_large" });
  });
});

describe("open-upload caps", () => {
  test("open tasks up to UPLOAD_MAX_OPEN are accepted, one more is refused with the time until the oldest expires", () => {
    for (let i = 0; i < LIMITS.maxOpen; i++) expect(send({ id: `c${i}`, index: 0, total: 2, body: randomBytes(10), now: T0 + i * 1000 })).toMatchObject({ kind: "partial" });
    const refused = send({ id: "c-next", index: 0, total: 2, body: randomBytes(10), now: T0 + 10_500 });
    expect(refused).toEqual({ kind: "over_cap", reason: "too many open uploads (3); retry later", retryAfterSeconds: 50 });
    expect(openTasks().n).toBe(LIMITS.maxOpen);
  });

  test("at the count cap, chunks of open tasks, completions and single-chunk uploads still pass", () => {
    const first = parts(3);
    for (let i = 0; i < LIMITS.maxOpen; i++) send({ id: i === 0 ? "full0" : `full${i}`, index: 0, total: 3, body: i === 0 ? first[0]! : randomBytes(10) });
    expect(send({ id: "full0", index: 1, total: 3, body: first[1]! })).toMatchObject({ kind: "partial" });
    expect(send({ id: "single", index: 0, total: 1, body: randomBytes(50_000) })).toMatchObject({ kind: "completed" });
    expect(send({ id: "full0", index: 2, total: 3, body: first[2]! })).toMatchObject({ kind: "completed" });
    expect(send({ id: "after", index: 0, total: 3, body: randomBytes(10) })).toMatchObject({ kind: "partial" });
  });

  test("open bytes exactly at UPLOAD_MAX_OPEN_MB are accepted, one byte more is refused and nothing is stored", () => {
    const limits = { ...LIMITS, maxOpen: 100 };
    expect(send({ id: "b1", index: 0, total: 3, body: randomBytes(60_000), limits })).toMatchObject({ kind: "partial" });
    expect(send({ id: "b2", index: 0, total: 3, body: randomBytes(40_000), limits })).toMatchObject({ kind: "partial" });
    const before = chunkRows();
    expect(send({ id: "b3", index: 0, total: 3, body: randomBytes(1), limits, now: T0 + 1 })).toMatchObject({ kind: "over_cap", retryAfterSeconds: 60 });
    expect(send({ id: "b1", index: 1, total: 3, body: randomBytes(1), limits })).toMatchObject({ kind: "over_cap" });
    expect(chunkRows()).toBe(before);
    // A resent index that shrinks its task makes room.
    expect(send({ id: "b1", index: 0, total: 3, body: randomBytes(59_999), limits })).toMatchObject({ kind: "partial" });
    expect(send({ id: "b3", index: 0, total: 3, body: randomBytes(1), limits })).toMatchObject({ kind: "partial" });
  });

  test("one peer holds at most its share of the open tasks and bytes; another peer is served meanwhile", () => {
    const limits = { ...LIMITS, maxOpen: 4, maxOpenBytes: 4 * MIB, peerShare: 0.5 };
    const from = (peer: string, id: string, bytes = 10) => send({ id, index: 0, total: 2, body: randomBytes(bytes), limits, peer });
    expect(from("192.0.2.1", "a1")).toMatchObject({ kind: "partial" });
    expect(from("192.0.2.1", "a2")).toMatchObject({ kind: "partial" });
    expect(from("192.0.2.1", "a3")).toMatchObject({ kind: "over_cap", reason: "too many open uploads from your address (2); retry later" });
    expect(from("198.51.100.7", "b1")).toMatchObject({ kind: "partial" });
    const bytes = { ...limits, maxOpen: 100 };
    expect(send({ id: "b2", index: 0, total: 2, body: randomBytes(MIB), limits: bytes, peer: "198.51.100.7" })).toMatchObject({ kind: "partial" });
    expect(send({ id: "b3", index: 0, total: 2, body: randomBytes(MIB), limits: bytes, peer: "198.51.100.7" })).toMatchObject({ kind: "over_cap", reason: `open uploads from your address hold too many bytes (${2 * MIB}); retry later` });
    expect(send({ id: "c1", index: 0, total: 2, body: randomBytes(MIB), limits: bytes, peer: "203.0.113.5" })).toMatchObject({ kind: "partial" });
  });

  test("tasks past the TTL no longer count: the cap frees without waiting for the sweep", () => {
    for (let i = 0; i < LIMITS.maxOpen; i++) send({ id: `t${i}`, index: 0, total: 2, body: randomBytes(10) });
    expect(send({ id: "t-late", index: 0, total: 2, body: randomBytes(10), now: T0 + LIMITS.ttlMs - 1 })).toMatchObject({ kind: "over_cap", retryAfterSeconds: 1 });
    expect(send({ id: "t-late", index: 0, total: 2, body: randomBytes(10), now: T0 + LIMITS.ttlMs + 1 })).toMatchObject({ kind: "partial" });
  });
});

describe("expiry", () => {
  test("open tasks past the TTL are deleted with their chunks; an expired task is never joined", () => {
    const stale = parts(2);
    send({ id: "exp", index: 0, total: 2, body: stale[0]! });
    const later = T0 + LIMITS.ttlMs + 1;
    const fresh = parts(2);
    send({ id: "exp", index: 0, total: 2, body: fresh[0]!, now: later });
    expect(send({ id: "exp", index: 1, total: 2, body: fresh[1]!, now: later })).toMatchObject({ kind: "completed" });
    expect(saveOf(fresh)).toBeDefined();
    expect(expireUploads(db, later, LIMITS.ttlMs)).toBe(1);
    expect(openTasks().n).toBe(0);
    expect(chunkRows()).toBe(0);
  });

  test("an open task exactly at the TTL is kept; completed tasks stay 24 h", () => {
    send({ id: "keep", index: 0, total: 2, body: randomBytes(10) });
    sendAll("done", parts(2));
    expect(expireUploads(db, T0 + LIMITS.ttlMs, LIMITS.ttlMs)).toBe(0);
    expect(expireUploads(db, T0 + COMPLETED_UPLOAD_RETENTION_MS, LIMITS.ttlMs)).toBe(1);
    expect(expireUploads(db, T0 + COMPLETED_UPLOAD_RETENTION_MS + 1, LIMITS.ttlMs)).toBe(1);
    expect((db.$client.query("SELECT count(*) AS n FROM upload_tasks").get() as { n: number }).n).toBe(0);
  });
});

describe("configuration", () => {
  test("defaults, the uploads group, UPLOAD_TOKEN among the secrets, bad values named", () => {
    expect(loadConfig({}).uploads).toEqual({ maxOpen: 200, maxOpenBytes: 64 * MIB, token: null });
    const config = loadConfig({ UPLOAD_MAX_OPEN: "3", UPLOAD_MAX_OPEN_MB: "1", UPLOAD_TOKEN: "s3cret-upload" });
    expect(config.uploads).toEqual({ maxOpen: 3, maxOpenBytes: MIB, token: "s3cret-upload" });
    expect(secretsOf(config)).toContain("s3cret-upload");
    expect(() => loadConfig({ UPLOAD_MAX_OPEN: "0" })).toThrow(/UPLOAD_MAX_OPEN must be an integer from 1/);
    expect(() => loadConfig({ UPLOAD_MAX_OPEN_MB: "0.5" })).toThrow(/UPLOAD_MAX_OPEN_MB must be a number from 1/);
  });
});
