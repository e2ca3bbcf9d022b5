/**
 * The ingest store's contract, the same tests on both stores: SQLite (the default, through the group committer)
 * and a hub's PostgreSQL: one save for the same bytes, on one process or two at once; a held save adopting a
 * player and its job running again; the subscribed players' saves first; reports. Chunks, caps and expiry are in
 * ingest-store.chunks.contract.test.ts.
 */
import { expect, test } from "bun:test";
import { advanceChange, LeaseLostError } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { extraction } from "../helpers/rows.ts";
import { blocks, chunk, ingestStoreFixture, LEASE, LIMITS, OTHER_PLAYER, PLAYER, T0 } from "../helpers/ingest-store-contract.ts";

describeEachStore("ingest store", (s) => {
  const { accept, saves, jobs, jobRows, players, rerun } = ingestStoreFixture(s);

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
});
