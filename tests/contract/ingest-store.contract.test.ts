/**
 * The ingest store's contract, the same tests on both stores: SQLite (the default, through the group committer)
 * and a hub's PostgreSQL. Two stores on one database stand for two processes of a hub: chunks, caps and saves
 * arriving at both at once keep the rules one process keeps. The finer upload rules (resends, reused ids, caps,
 * expiry) are in upload-rules.contract.test.ts.
 */
import { beforeEach, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import type { HarExtraction } from "../../src/ingest/har.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { NO_ORIGIN, type SaveOrigin } from "../../src/store/model/saves.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../src/store/ports/ingest.ts";
import { advanceChange, LeaseLostError } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { holdAdvisoryLock } from "../helpers/contract-sql.ts";
import { extraction } from "../helpers/rows.ts";

const T0 = 1_700_000_000_000;
const TTL = 60_000;
const LEASE = 60_000;
const PLAYER = "7485938820123456789";
const OTHER_PLAYER = "1234567890123456789";
const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: TTL, maxOpen: 4, maxOpenBytes: 1 << 20, peerShare: 0.5, mayBeSave: () => true };

interface ChunkOptions {
  player?: string | null;
  peer?: string;
  now?: number;
  origin?: SaveOrigin;
}

function chunk(uploadId: string, chunkIndex: number, totalChunks: number, body: Uint8Array, options: ChunkOptions = {}): IncomingChunk {
  const player = options.player === undefined ? PLAYER : options.player;
  const originalUrl = player === null ? null : `https://mysekai.example/api/user/${player}/mysekai`;
  return { header: { uploadId, chunkIndex, totalChunks, originalUrl }, body, playerId: player, origin: options.origin ?? NO_ORIGIN, peer: options.peer ?? "203.0.113.7", now: options.now ?? T0 };
}

const blocks = (n: number) => new Uint8Array(randomBytes(16 * n));
const kinds = (outcomes: ChunkOutcome[]) => outcomes.map((outcome) => outcome.kind).sort();

describeEachStore("ingest store", (s) => {
  let accept: (c: IncomingChunk, limits?: UploadLimits) => Promise<ChunkOutcome>;
  beforeEach(() => void (accept = (c, limits = LIMITS) => s.stores.uploads.acceptChunk(c, limits)));
  /** Another process of the hub holding the advisory lock `key` names (its SQL), until the release. */
  const holdLock = (key: string) => holdAdvisoryLock(s.config.database.kind === "postgres" ? s.config.database.url : "", key);

  const saves = async () => (await s.stored.saves()).length;
  const jobs = async () => (await s.jobRows.all()).length;
  const openTasks = () => s.stored.openUploadTasks();
  const jobRows = async () => (await s.jobRows.all()).map((job) => `${job.stage}:${job.state}:${job.attempts}:${job.notify ? "push" : "quiet"}:${job.lastError ?? "-"}`);
  const players = async () => (await s.stored.saves()).map((save) => save.player);
  const rerun = (job: { rerun: boolean }) => (job.rerun ? "rerun" : "-");

  test("chunks arriving in any order become one save of their bytes in index order, with one job", async () => {
    const parts = [blocks(2), blocks(3), blocks(1)];
    const first = await accept(chunk("u1", 2, 3, parts[2]!));
    expect(first).toMatchObject({ kind: "partial", received: 1, total: 3 });
    expect(await accept(chunk("u1", 0, 3, parts[0]!))).toMatchObject({ kind: "partial", received: 2 });
    const done = await accept(chunk("u1", 1, 3, parts[1]!));
    expect(done).toMatchObject({ kind: "completed", created: true, playerId: PLAYER, saveBytes: 96 });
    expect((await s.stored.saves()).map((save) => save.sha256)).toEqual([sha256Hex(Buffer.concat(parts))]);
    expect((await s.jobRows.all()).map((job) => job.stage)).toEqual(["generate"]);
    expect(await openTasks()).toBe(0);
    expect(await s.stored.heldChunks()).toBe(0);
  });

  test("a save keeps the origin its completing chunk came with, in one chunk (PostgreSQL's one statement) or several", async () => {
    const party: SaveOrigin = { region: "cn", dataType: "mysekai_birthday_party" };
    const save: SaveOrigin = { region: "tw", dataType: "mysekai" };
    expect(await accept(chunk("party", 0, 1, blocks(2), { origin: party }))).toMatchObject({ kind: "completed", created: true });
    await accept(chunk("two", 0, 2, blocks(1), { origin: party }));
    expect(await accept(chunk("two", 1, 2, blocks(1), { origin: save }))).toMatchObject({ kind: "completed", created: true });
    expect(await accept(chunk("none", 0, 1, blocks(2), { player: null }))).toMatchObject({ kind: "completed", created: true });
    expect((await s.stored.saves()).map((save) => `${save.region ?? "-"}:${save.dataType}`)).toEqual(["cn:mysekai_birthday_party", "tw:mysekai", "-:mysekai"]);
  });

  test("a resent chunk is answered without a second save, whether its task is open or completed", async () => {
    const parts = [blocks(1), blocks(1)];
    await accept(chunk("u2", 0, 2, parts[0]!));
    expect(await accept(chunk("u2", 0, 2, parts[0]!))).toMatchObject({ kind: "partial", received: 1 });
    const done = await accept(chunk("u2", 1, 2, parts[1]!));
    expect(done.kind).toBe("completed");
    const again = await accept(chunk("u2", 1, 2, parts[1]!, { now: T0 + 1000 }));
    expect(again).toEqual({ kind: "resend", taskId: (done as { taskId: number }).taskId, saveId: (done as { saveId: number }).saveId });
    expect([await saves(), await jobs(), await openTasks()]).toEqual([1, 1, 0]);
  });

  test("a chunk joins only an open task of its own player: another player's (or none's) starts its own", async () => {
    const parts = [blocks(1), blocks(1)];
    await accept(chunk("u3", 0, 2, parts[0]!, { player: PLAYER }));
    expect(await accept(chunk("u3", 1, 2, blocks(1), { player: OTHER_PLAYER, peer: "198.51.100.9" }))).toMatchObject({ kind: "partial", received: 1 });
    expect(await accept(chunk("u3", 1, 2, blocks(1), { player: null, peer: "198.51.100.10" }))).toMatchObject({ kind: "partial", received: 1 });
    expect(await accept(chunk("u3", 1, 2, parts[1]!, { player: PLAYER }))).toMatchObject({ kind: "completed", playerId: PLAYER });
    expect(await players()).toEqual([PLAYER]);
    expect(await openTasks()).toBe(2);
  });

  test("a peer holds at most its share of open tasks, and all peers together the cap, each refusal with a wait", async () => {
    const open = (id: string, peer: string, now = T0) => accept(chunk(id, 0, 2, blocks(1), { peer, now }));
    expect(kinds([await open("a1", "198.51.100.1"), await open("a2", "198.51.100.1", T0 + 5000)])).toEqual(["partial", "partial"]);
    const mine = await open("a3", "198.51.100.1");
    expect(mine).toMatchObject({ kind: "over_cap", reason: "too many open uploads from your address (2); retry later", retryAfterSeconds: TTL / 1000 });
    expect(kinds([await open("b1", "198.51.100.2"), await open("b2", "198.51.100.2")])).toEqual(["partial", "partial"]);
    expect(await open("c1", "198.51.100.3", T0 + 10_000)).toMatchObject({ kind: "over_cap", reason: "too many open uploads (4); retry later", retryAfterSeconds: 50 });
    // A chunk completing a task needs no room.
    expect((await accept(chunk("a1", 1, 2, blocks(1), { peer: "198.51.100.1" }))).kind).toBe("completed");
    expect(await openTasks()).toBe(3);
  });

  test("chunks opening tasks on two processes at once never pass the cap together", async () => {
    const second = await s.another();
    const limits = { ...LIMITS, peerShare: 1 };
    const stores = [s.stores, second];
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stores[i % 2]!.uploads.acceptChunk(chunk(`race${i}`, 0, 2, blocks(1), { peer: `198.51.100.${i}` }), limits)),
    );
    expect(outcomes.filter((outcome) => outcome.kind === "partial")).toHaveLength(LIMITS.maxOpen);
    expect(await openTasks()).toBe(LIMITS.maxOpen);
  });

  test("the chunks of one upload sent to two processes at once complete one save", async () => {
    const second = await s.another();
    for (let round = 0; round < 5; round++) {
      const parts = [blocks(1), blocks(1)];
      const outcomes = await Promise.all([
        s.stores.uploads.acceptChunk(chunk(`two${round}`, 0, 2, parts[0]!), LIMITS),
        second.uploads.acceptChunk(chunk(`two${round}`, 1, 2, parts[1]!), LIMITS),
      ]);
      expect(kinds(outcomes)).toEqual(["completed", "partial"]);
    }
    expect([await saves(), await openTasks()]).toEqual([5, 0]);
  });

  test("the same save sent twice is one save with one job", async () => {
    const body = blocks(4);
    expect(await accept(chunk("s1", 0, 1, body))).toMatchObject({ kind: "completed", created: true });
    expect(await accept(chunk("s2", 0, 1, body, { now: T0 + 1 }))).toMatchObject({ kind: "completed", created: false, adopted: false });
    expect([await saves(), await jobs()]).toEqual([1, 1]);
  });

  test("the same save sent to two processes at once is one save with one job", async () => {
    const second = await s.another();
    for (let round = 0; round < 5; round++) {
      const body = blocks(4);
      const outcomes = await Promise.all([
        s.stores.uploads.acceptChunk(chunk(`p${round}`, 0, 1, body), LIMITS),
        second.uploads.acceptChunk(chunk(`q${round}`, 0, 1, body), LIMITS),
      ]);
      expect(outcomes.filter((outcome) => outcome.kind === "completed" && outcome.created)).toHaveLength(1);
    }
    expect([await saves(), await jobs()]).toEqual([5, 5]);
  });

  test("a save held as unknown takes the player id of a later arrival, and its job runs again", async () => {
    const body = blocks(2);
    await accept(chunk("n1", 0, 1, body, { player: null }));
    await s.jobRows.setAll({ stage: "done", state: "done", attempts: 3, notify: false, lastError: "x" });
    expect(await accept(chunk("n2", 0, 1, body))).toMatchObject({ kind: "completed", created: false, adopted: true, playerId: PLAYER });
    expect(await players()).toEqual([PLAYER]);
    expect(await jobRows()).toEqual(["generate:pending:0:push:-"]);
  });

  test("a queued unknown save takes the player id; its job stays at generate, due now", async () => {
    const body = blocks(2);
    const held = await accept(chunk("q1", 0, 1, body, { player: null }));
    expect(await accept(chunk("q2", 0, 1, body, { now: T0 + 5 }))).toMatchObject({ kind: "completed", saveId: (held as { saveId: number }).saveId, created: false, adopted: true });
    expect(await players()).toEqual([PLAYER]);
    expect(await jobRows()).toEqual(["generate:pending:0:push:-"]);
    expect(await s.stores.jobs.nextDueAt()).toBeLessThanOrEqual(Date.now());
  });

  test("a save whose done job retention deleted gets a job back, at generate with the push on", async () => {
    const body = blocks(2);
    await accept(chunk("r1", 0, 1, body, { player: null }));
    await s.stored.dropJobs();
    expect(await accept(chunk("r2", 0, 1, body))).toMatchObject({ adopted: true });
    expect(await jobRows()).toEqual(["generate:pending:0:push:-"]);
  });

  test("a known player id is never replaced, and unknown never replaces anything", async () => {
    const body = blocks(2);
    await accept(chunk("k1", 0, 1, body));
    await s.jobRows.setAll({ stage: "done", state: "done" });
    expect(await accept(chunk("k2", 0, 1, body, { player: OTHER_PLAYER }))).toMatchObject({ created: false, adopted: false });
    expect(await accept(chunk("k3", 0, 1, body, { player: null }))).toMatchObject({ created: false, adopted: false });
    const unknown = blocks(2);
    await accept(chunk("k4", 0, 1, unknown, { player: null }));
    expect(await accept(chunk("k5", 0, 1, unknown, { player: null }))).toMatchObject({ created: false, adopted: false });
    expect(await players()).toEqual([PLAYER, "unknown"]);
    expect((await s.jobRows.all()).map((job) => `${job.stage}:${job.state}`)[0]).toBe("done:done");
  });

  test("a save adopted while its job runs is flagged; the holder's next record sends it back to generate, once", async () => {
    const body = blocks(2);
    await accept(chunk("run1", 0, 1, body, { player: null }));
    const job = (await s.stores.jobs.claim(T0 + 1, LEASE, false))!;
    await accept(chunk("run2", 0, 1, body, { now: T0 + 2 }));
    expect((await s.jobRows.all()).map((job) => `${job.state}:${rerun(job)}`)).toEqual(["running:rerun"]);
    expect(await s.stores.jobs.record(job, advanceChange("archive", T0 + 3), T0 + 3)).toBe("redraw");
    expect(await jobRows()).toEqual(["generate:pending:0:push:-"]);
    expect((await s.jobRows.all()).map((job) => `${rerun(job)}:${job.runAt}`)).toEqual([`-:${T0 + 3}`]);
    // Recorded once: the next run of the stage advances as usual.
    const again = (await s.stores.jobs.claim(T0 + 4, LEASE, false))!;
    expect(await s.stores.jobs.record(again, advanceChange("archive", T0 + 5), T0 + 5)).toBe("recorded");
  });

  test("a holder that lost its lease cannot clear the adoption's flag; the one that took over does", async () => {
    const body = blocks(2);
    await accept(chunk("lost1", 0, 1, body, { player: null }));
    const old = (await s.stores.jobs.claim(T0 + 1, 1_000, false))!;
    await accept(chunk("lost2", 0, 1, body, { now: T0 + 2 }));
    const current = (await s.stores.jobs.claim(T0 + 5_000, LEASE, false))!;
    await expect(s.stores.jobs.record(old, advanceChange("archive", T0 + 6_000), T0 + 6_000)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await s.jobRows.all()).map(rerun)).toEqual(["rerun"]);
    expect(await s.stores.jobs.record(current, advanceChange("archive", T0 + 6_000), T0 + 6_000)).toBe("redraw");
  });

  test("a save of a player some bot subscribes to is queued to go first: one chunk, several, and a held save adopting the player", async () => {
    await s.sql.insert("msr_subscriptions", { tokenName: "bot", region: "jp", peer: "127.0.0.1", listBytes: 30, listSha256: "x", updatedAt: Date.now() }); // the adoption judges it now
    await s.sql.insert("msr_subscription_players", { tokenName: "bot", region: "jp", position: 0, playerId: PLAYER, mode: "latest" });
    const first = (body: Uint8Array) => body.subarray(0, 16);
    const split = blocks(2);
    await accept(chunk("one", 0, 1, blocks(2)));
    await accept(chunk("other", 0, 1, blocks(2), { player: OTHER_PLAYER }));
    await accept(chunk("two", 0, 2, first(split)));
    await accept(chunk("two", 1, 2, split.subarray(16)));
    const held = blocks(2);
    await accept(chunk("held", 0, 1, held, { player: null }));
    const flags = async () => (await s.jobRows.all()).map((job) => (job.subscribed ? "first" : "in turn"));
    expect(await flags()).toEqual(["first", "in turn", "first", "in turn"]);
    await s.jobRows.setAll({ stage: "done", state: "done" });
    await accept(chunk("named", 0, 1, held));
    expect(await flags()).toEqual(["first", "in turn", "first", "first"]);
  });

  test("a report stores its candidates in order with one evaluate job", async () => {
    const bodies = [blocks(1), blocks(2), blocks(3)];
    const id = await s.stores.reports.store(extraction(bodies), { tool: "test" }, T0);
    expect(await s.stored.reportCount()).toBe(1);
    expect((await s.stores.stageStore.reportToEvaluate(id))!.candidates.map((candidate) => `${candidate.seq}:${candidate.body.length}`)).toEqual(["0:16", "1:32", "2:48"]);
    expect((await s.jobRows.where(`report_id = ${id}`)).map((job) => job.stage)).toEqual(["evaluate"]);
    expect(await jobs()).toBe(1);
  });

  // SQLite has one process per file (its instance lock): only PostgreSQL has others to take turns with.
  if (s.hub) test("expiry runs in one process at a time: it skips while another holds the housekeeping lock", async () => {
    await accept(chunk("h1", 0, 2, blocks(1)));
    const release = await holdLock(`${0x6d79_7367}`);
    expect(await s.stores.uploads.expire(T0 + TTL + 1, TTL)).toBeNull();
    expect(await openTasks()).toBe(1);
    await release();
    expect(await s.stores.uploads.expire(T0 + TTL + 1, TTL)).toBe(1);
  });

  if (s.hub) test("expiry leaves a task alone while a chunk of its upload is in flight on another process", async () => {
    await accept(chunk("busy", 0, 2, blocks(1)));
    const release = await holdLock(`${0x6d79_7375}, hashtext('busy')`);
    expect(await s.stores.uploads.expire(T0 + TTL + 1, TTL)).toBe(0);
    expect(await openTasks()).toBe(1);
    await release();
    expect(await s.stores.uploads.expire(T0 + TTL + 1, TTL)).toBe(1);
  });
});
