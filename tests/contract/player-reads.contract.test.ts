/**
 * The stores behind this issue's player features, the same tests on SQLite and a hub's PostgreSQL: the nudge store
 * (opt-ins, a claim won once across two processes, what counts as a full save, the region), the capture health
 * reads and the spawn archives' read.
 */
import { expect, test } from "bun:test";
import type { Region } from "../../src/capture/regions.ts";
import type { DataType } from "../../src/capture/data-types.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { fullDigest } from "../helpers/rows.ts";

const PLAYER = "7485938820123456789";
const T0 = 1_700_000_000_000;

describeEachStore("player reads", (s) => {
  /**
   * A save of PLAYER as the pipeline leaves it: drawn and archived (with `digest`: none, as an older version left
   * it), or its job `running` or `failed` with its error.
   */
  async function save(receivedAt: number, opts: { region?: Region | null; digest?: ReturnType<typeof fullDigest> | null; archived?: boolean; job?: { state: "done" | "running" | "failed"; error?: string }; dataType?: DataType } = {}): Promise<number> {
    const id = await s.rows.save({ playerId: PLAYER, at: receivedAt, region: opts.region ?? undefined, dataType: opts.dataType });
    if (opts.job?.state === "running") await s.rows.claim(receivedAt, id);
    else if (opts.job?.state === "failed") await s.rows.failed(id, opts.job.error!, receivedAt);
    else if (opts.archived !== false) {
      await s.rows.drawn(id, { at: receivedAt, digest: opts.digest ?? fullDigest() });
      if (!opts.digest) await s.stored.dropArchiveDigest(id);
    }
    return id;
  }
  const digest = (partial: boolean) => ({ ...fullDigest(partial), rare: partial ? [] : [{ type: "mysekai_material", id: 1, name: "Diamond", tier: "super" as const, total: 1 }] });

  test("nudges: opt-in and out; a (player, refresh) claimed once, whichever process asks first", async () => {
    await s.stores.nudges.setNudge(PLAYER, 3, T0);
    await s.stores.nudges.setNudge(PLAYER, 5, T0 + 1);
    expect(await s.stores.nudges.nudgePlayers()).toEqual([{ playerId: PLAYER, hours: 5, since: T0 }]);
    const other = (await s.another()).nudges;
    expect(await other.claim(PLAYER, T0, "missed", T0)).toBe(true);
    expect(await s.stores.nudges.claim(PLAYER, T0, "partial", T0)).toBe(false);
    expect(await s.stores.nudges.claim(PLAYER, T0 + 1, "missed", T0)).toBe(true);
    await s.stores.nudges.setNudge(PLAYER, null);
    expect(await s.stores.nudges.nudgePlayer(PLAYER)).toBeNull();
  });

  test("nudges: a full save or a party refresh counts, a partial or failed one or a party delivery kept as a record does not, one still being drawn does; the newest save's region", async () => {
    expect(await s.stores.nudges.latestRegion(PLAYER)).toBeNull();
    await save(T0, { region: "en", digest: digest(false) });
    await save(T0 + 10, { region: "jp", digest: digest(true) });
    await save(T0 + 20, { region: null, digest: digest(true) });
    expect(await s.stores.nudges.latestRegion(PLAYER)).toBe("jp");
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0)).toBe(true);
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
    // A party delivery that refreshed nothing (digest partial), or one still being drawn, leaves the nudge due.
    await save(T0 + 21, { region: "jp", digest: digest(true), dataType: "mysekai_birthday_party", job: { state: "done" } });
    await save(T0 + 22, { region: "jp", archived: false, dataType: "mysekai_birthday_party", job: { state: "running" } });
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
    await save(T0 + 25, { archived: false, job: { state: "failed", error: "does not decrypt under any configured key (bad padding)" } });
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
    await save(T0 + 30, { archived: false, job: { state: "running" } });
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(true);
    // A party refresh is the refresh: it counts.
    await save(T0 + 40, { region: "jp", digest: digest(false), dataType: "mysekai_birthday_party", job: { state: "done" } });
    expect(await s.stores.nudges.fullSaveSince(PLAYER, T0 + 31)).toBe(true);
  });

  test("capture health: the newest save that did not fail, and the newest failure with its reason", async () => {
    expect(await s.stores.captureHealth.captureHealth(PLAYER)).toEqual({ latest: null, failure: null });
    await save(T0, { region: "jp", digest: digest(false), job: { state: "done" } });
    await save(T0 + 10, { region: "jp", archived: false, job: { state: "failed", error: "does not decrypt under any configured key (bad padding)" } });
    const health = await s.stores.captureHealth.captureHealth(PLAYER);
    expect(health).toEqual({ latest: { receivedAt: T0, source: "upload", region: "jp", partial: false, unknown: [], report: null }, failure: { receivedAt: T0 + 10, reason: "does not decrypt under any configured key (bad padding)", region: "jp" } });
    // A party delivery kept as a record is no capture of the save: the latest stays.
    await save(T0 + 20, { region: "jp", digest: digest(true), dataType: "mysekai_birthday_party", job: { state: "done" } });
    expect((await s.stores.captureHealth.captureHealth(PLAYER)).latest?.receivedAt).toBe(T0);
  });

  test("spawn archives: since a time, newest first, with their digests", async () => {
    await save(T0, { digest: digest(false) });
    const b = await save(T0 + 10, { digest: digest(true) });
    const c = await save(T0 + 20);
    const rows = await s.stores.spawnReads.archivesSince(PLAYER, T0 + 5);
    expect(rows.map((r) => [r.saveId, r.receivedAt, r.relPath, r.digest?.partial ?? null])).toEqual([
      [c, T0 + 20, `by-id/${PLAYER}/${c}`, null],
      [b, T0 + 10, `by-id/${PLAYER}/${b}`, true],
    ]);
  });
});
