/**
 * The ingest store's contract, the same tests on both stores: SQLite (the default, through the group committer)
 * and a hub's PostgreSQL: chunks becoming saves, the open-upload caps, expiry between processes. Two stores on one
 * database stand for two processes of a hub: chunks and caps arriving at both at once keep the rules one process
 * keeps. Saves sent twice, adoptions and reports are in ingest-store.saves.contract.test.ts; the finer upload rules
 * (resends, reused ids, caps, expiry) in upload-rules.*.contract.test.ts.
 */
import { expect, test } from "bun:test";
import { sha256Hex } from "../../src/sha256.ts";
import type { SaveOrigin } from "../../src/store/model/saves.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { blocks, chunk, ingestStoreFixture, kinds, LIMITS, OTHER_PLAYER, PLAYER, T0, TTL } from "../helpers/ingest-store-contract.ts";

describeEachStore("ingest store", (s) => {
  const { accept, holdLock, saves, jobs, openTasks, players } = ingestStoreFixture(s);

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
