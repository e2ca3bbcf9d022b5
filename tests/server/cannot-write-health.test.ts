/**
 * A full disk under the pipeline (issue 49, point 7), MIN_FREE_DISK_MB=0: the archive on a small tmpfs, filled up
 * before a save is accepted. While the pipeline cannot write, /healthz answers 503 with the reason and the status
 * page says it; the log says it once, however many times the pipeline tries; once space is back the save goes
 * through, /healthz answers 200 again and the log says so. And a commit the full disk refuses is a 507, not a 500.
 * Needs root to mount the tmpfs (skipped without).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const root = mkdtempSync(join(tmpdir(), "cannot-write-"));
const archiveMount = join(root, "pipeline", "archive");
const dataMount = join(root, "whole");
const mount = (at: string, size: string) => (mkdirSync(at, { recursive: true }), Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", at]).exitCode === 0);
const mounted = mount(archiveMount, "8m") && mount(dataMount, "24m");
const { pair, env: keyEnv } = testKeys();
const ENV = { ...keyEnv, NOTIFY_DEFAULT: "none", MIN_FREE_DISK_MB: "0", JOB_BACKOFF_MS: Array(20).fill("200").join(",") };
const started: RunningServer[] = [];
const start = async (dataDir: string) => {
  const server = await startServer({ env: ENV, dataDir });
  started.push(server);
  return server;
};
afterAll(async () => {
  for (const server of started) await server.stop();
  for (const at of [archiveMount, dataMount]) Bun.spawnSync(["umount", "-l", at]);
  rmSync(root, { recursive: true, force: true });
});

/** Fills the filesystem: big writes, then small ones, until nothing more fits. */
function fill(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const block = new Uint8Array(size);
      for (;;) {
        try {
          writeSync(fd, block);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!mounted)("a full disk under the pipeline", () => {
  test("/healthz and the status page say the pipeline cannot write (503, the reason); logged once; all back once space is", async () => {
    const server = await start(join(root, "pipeline"));
    const health = async () => {
      const answer = await fetch(`${server.url}/healthz`);
      return { status: answer.status, body: (await answer.json()) as { reasons: string[] } };
    };
    expect((await health()).status).toBe(200);
    const filler = join(archiveMount, "filler");
    fill(filler);
    const uploadId = crypto.randomUUID();
    expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed: 4991, now: Date.now() }), uploadId)).status).toBe(200);
    const sick = await eventually(async () => {
      const now = await health();
      return now.status === 503 ? now : null;
    }, 60_000, "/healthz says 503");
    const reason = sick.body.reasons.find((r) => r.startsWith("the pipeline cannot write: "));
    expect(reason).toMatch(/ENOSPC|no space left/i);
    const page = await (await fetch(`${server.url}/`, { headers: { "accept-language": "en" } })).text();
    expect(page).toContain('data-banner="cannot-write"');
    expect(page).toContain("The pipeline cannot write (");
    // Many tries (every 200 ms), one line.
    await eventually(() => (server.output().match(/stage finished .*outcome=retry/g)?.length ?? 0) >= 4, 60_000, "the pipeline tried again several times");
    expect(server.output().match(/the pipeline cannot write/g)?.length).toBe(1);

    rmSync(filler);
    await eventually(async () => (await health()).status === 200, 60_000, "/healthz says 200 again");
    expect(server.output()).toContain("the pipeline writes again");
    const saveId = (await reads(server).saveOfUpload(uploadId))!;
    await jobReaches(server, saveId, "done", 60_000, "the save accepted during the full disk is done");
  }, 180_000);

  test("an upload whose commit the full disk refuses gets 507 with Retry-After, not a 500", async () => {
    const server = await start(join(dataMount, "data"));
    const filler = join(dataMount, "filler");
    try {
      fill(filler);
      const refused = await uploadSave(server.url, makeEncryptedSample(pair, { seed: 4992, now: Date.now() }), crypto.randomUUID());
      expect([refused.status, await refused.text()]).toEqual([507, "server storage is full; try again later"]);
      expect(refused.headers.get("retry-after")).not.toBeNull();
    } finally {
      rmSync(filler, { force: true });
    }
  }, 120_000);
});
