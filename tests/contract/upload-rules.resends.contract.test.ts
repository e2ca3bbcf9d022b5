/**
 * The upload rules, the same tests on both stores (SQLite through the group committer, a hub's PostgreSQL), through
 * the upload store's interface: resends and reused ids. Tasks by player, within one task, the caps and expiry are in
 * upload-rules.open-tasks.contract.test.ts; the basics (chunk order, races between two processes, reports) in
 * ingest-store.*.contract.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { RESEND_LOOKBACK } from "../../src/db/uploads/statements.ts";
import { COMPLETED_UPLOAD_RETENTION_MS } from "../../src/db/uploads/rules.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { P1, P2, parts, T0, uploadRulesFixture } from "../helpers/upload-rules-contract.ts";

describeEachStore("upload rules", (s) => {
  const { send, sendAll, savesRows, saveOf, openTasks, chunkRows } = uploadRulesFixture(s);

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
});
