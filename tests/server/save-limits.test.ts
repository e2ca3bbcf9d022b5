import { describe, expect, test } from "bun:test";
import { drop, save, saveAtCaps, site } from "../helpers/maps-fixtures.ts";
import { serversForThisFile } from "../helpers/in-process.ts";
import { jobReaches, reads, saveIdOf } from "../helpers/store-reads.ts";
import { encryptedSave, encryptRaw, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { SAVE_LIMITS } from "../../src/save/limits.ts";


const start = serversForThisFile({ JOB_BACKOFF_MS: "100,100" });

/** 10,000 drops on one site, as compact as a drop can be (a one-letter status) so that it fits one 1 MiB upload. */
const tenThousandDrops = () => save([site(5, Array.from({ length: 10_000 }, (_, i) => ({ ...drop("a", 1, i % 100, Math.floor(i / 100)), status: "x" })))]);

describe("a save past the caps", () => {
  test("fails at once with its reason (one attempt, nothing drawn) and a normal save right after is archived promptly", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    expect((await uploadSave(server.url, encryptRaw(pair, rawSave(tenThousandDrops())), "over-cap")).status).toBe(200);
    expect((await uploadSave(server.url, encryptedSave(pair), "normal")).status).toBe(200);
    const uploaded = Date.now();

    const failed = await jobReaches(server, await saveIdOf(server, "over-cap"), "failed");
    expect(failed.attempts).toBe(1);
    expect(failed.stage).toBe("generate");
    expect(failed.last_error).toBe(`over the save limits: 10000 drops on site 5 (limit ${SAVE_LIMITS.dropsPerSite})`);
    expect(await reads(server).archive(await saveIdOf(server, "over-cap"))).toBeUndefined();

    await jobReaches(server, await saveIdOf(server, "normal"), "done");
    expect(Date.now() - uploaded).toBeLessThan(10_000);
    await server.waitForOutput(/\[JOB\] WARN stage finished .*stage=generate attempt=1 .*outcome=failed note="?over the save limits: 10000 drops on site 5/);
  });

  test("a render past TASK_TIMEOUT_MS gets one more try behind the queue, then fails with the reason", async () => {
    const { pair, env } = testKeys();
    // The game's 4 sites, each at the density caps, is legal (and fits one 1 MiB upload; all 8 sites do not) but
    // takes over 1 s to draw here: past the shortest task timeout, honestly.
    const server = await start({ ...env, TASK_TIMEOUT_MS: "250" });
    expect((await uploadSave(server.url, encryptRaw(pair, rawSave(saveAtCaps({ ...SAVE_LIMITS, sites: 4 }))), "slow")).status).toBe(200);
    // A partial refresh (no harvest maps) draws nothing: a fresh worker, next to the killed task's renders, is done in a fraction of that.
    expect((await uploadSave(server.url, encryptRaw(pair, rawSave(save([]))), "after-slow")).status).toBe(200);

    const slow = await jobReaches(server, await saveIdOf(server, "slow"), "failed", 30_000);
    expect(slow.last_error).toBe("rendering took longer than 0.25 s twice");
    expect(slow.attempts).toBe(2);
    await jobReaches(server, await saveIdOf(server, "after-slow"), "done");
    // Each log line follows its commit: wait for the last one before reading the order.
    await server.waitForOutput(/save=1 .*stage=generate attempt=2 .*outcome=failed/);
    // The queued save's first attempt, whatever it came to: on a loaded machine a fresh worker's start alone can pass
    // 0.25 s. What is tested is the order: the timed-out render tries again only behind it.
    const queuedFirst = /save=2 .*stage=generate attempt=1 .*outcome=/;
    await server.waitForOutput(queuedFirst);
    const log = server.output();
    const firstTimeout = log.search(/save=1 .*stage=generate attempt=1 .*outcome=retry/);
    const normalDrawn = log.search(queuedFirst);
    const secondTimeout = log.search(/save=1 .*stage=generate attempt=2 .*outcome=failed/);
    expect(firstTimeout).toBeGreaterThan(-1);
    expect(normalDrawn).toBeGreaterThan(firstTimeout);
    expect(secondTimeout).toBeGreaterThan(normalDrawn);
  }, 60_000);
});
