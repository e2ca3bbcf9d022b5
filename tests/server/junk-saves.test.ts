/**
 * Junk never holds back real saves: bytes that cannot be a save under any configured key are kept (a 200 stays
 * a 200), but their jobs wait behind every save that can be one; when the keys change, they are judged again.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { jobReaches, reads, saveIdOf } from "../helpers/store-reads.ts";

const start = serversForThisFile();

const jobOf = (server: RunningServer, saveId: number) => reads(server).job(saveId);

describe("junk waits behind real saves", () => {
  test("300 junk uploads are kept, flagged and failed without a worker; a real save among them is archived", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    // Random whole blocks: about one in 250 ends in valid padding by chance and counts as plausible.
    const junk = Array.from({ length: 300 }, () => randomBytes(4096));
    for (let i = 0; i < junk.length; i += 20) {
      const batch = junk.slice(i, i + 20).map((body, j) => uploadSave(server.url, body, `junk-${i + j}`));
      expect((await Promise.all(batch)).every((response) => response.status === 200)).toBe(true);
      if (i === 140) expect((await uploadSave(server.url, encryptedSave(pair), "real-1")).status).toBe(200);
    }
    const real = await saveIdOf(server, "real-1");
    await jobReaches(server, real, "done", 60_000, "the real save done");
    expect(await reads(server).saveCount()).toBe(301);
    const implausible = async () => (await reads(server).jobs()).filter((job) => job.implausible);
    expect((await implausible()).length).toBeGreaterThan(280);
    await eventually(async () => (await reads(server).jobs()).filter((job) => ["failed", "done"].includes(job.state)).length === 301, 60_000, "every job settled");
    const settled = await implausible();
    expect(settled.filter((job) => job.state === "failed" && job.last_error?.includes("does not decrypt under any configured key"))).toHaveLength(settled.length);
  }, 120_000);

  test("a save that failed under the old keys runs again after a restart with keys it decrypts under", async () => {
    const old = testKeys();
    const right = testKeys();
    const server = await start(old.env);
    expect((await uploadSave(server.url, encryptedSave(right.pair), "other-key")).status).toBe(200);
    const saveId = await saveIdOf(server, "other-key");
    await jobReaches(server, saveId, "failed", 20_000, "failed under the old key");
    expect((await jobOf(server, saveId))!.implausible).toBe(true);
    await server.stop();
    const again = await start(right.env, server.dataDir);
    await again.waitForOutput(/failed saves that can be saves under these keys queued again count=1/);
    await jobReaches(again, saveId, "done", 30_000, "done under the right key");
    expect((await jobOf(again, saveId))!.implausible).toBe(false);
  });
});

describe("the WAL stays bounded at run time", () => {
  test("past WAL_SIZE_LIMIT_MB the WAL is cut back after checkpoints, not only at shutdown", async () => {
    const server = await start({ WAL_SIZE_LIMIT_MB: "1" });
    const walBytes = () => Bun.file(`${server.dbPath}-wal`).size;
    for (let i = 0; i < 60; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) => uploadSave(server.url, randomBytes(100_000), `wal-${i + j}`));
      expect((await Promise.all(batch)).every((response) => response.status === 200)).toBe(true);
    }
    // 6 MB of saves went through the WAL; a checkpoint (every second) and the next write cut it back.
    await eventually(async () => {
      await uploadSave(server.url, randomBytes(16), `wal-poke-${Date.now()}`);
      return walBytes() <= 1024 * 1024;
    }, 20_000, "the WAL cut back to its limit");
  });
});
