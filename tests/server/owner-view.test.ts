import type { Health } from "../../src/http/health.ts";
import { describe, expect, test } from "bun:test";
import { parsePrometheus, valueOf } from "../helpers/prometheus.ts";
import { startServer, type RunningServer } from "../helpers/server.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

/** Runs `check` against a fresh server that is removed afterwards, whatever happens. */
async function withServer(env: Record<string, string>, check: (server: RunningServer) => Promise<void>) {
  const server = await startServer({ env });
  try {
    await check(server);
  } finally {
    await server.stop("SIGKILL");
    server.cleanup();
  }
}

const scrape = async (server: RunningServer) => parsePrometheus(await (await fetch(`${server.url}/metrics`)).text()).samples;

describe("the owner's view on the real server (loopback, no ADMIN_TOKEN)", () => {
  test("counters move when a save goes through; the page shows it with its thumbnails", async () => {
    const { pair, env } = testKeys();
    await withServer({ ...env, NOTIFY_DEFAULT: "none" }, async (server) => {
      const before = await scrape(server);
      expect(valueOf(before, "mysekai_uploads_total", { outcome: "save" })).toBe(0);

      expect((await uploadSave(server.url, encryptedSave(pair), "owner-1")).status).toBe(200);
      expect((await fetch(`${server.url}/uploadSaveData`, { method: "POST", body: "x" })).status).toBe(400);
      const saveId = (await reads(server).saveOfUpload("owner-1"))!;
      await jobReaches(server, saveId, "done", 30_000, "the save done");

      const after = await scrape(server);
      expect(valueOf(after, "mysekai_uploads_total", { outcome: "save" })).toBe(1);
      expect(valueOf(after, "mysekai_uploads_total", { outcome: "rejected" })).toBe(1);
      for (const stage of ["generate", "notify"]) {
        expect(valueOf(after, "mysekai_stage_duration_seconds_count", { stage })).toBe(1);
      }
      expect(valueOf(after, "mysekai_render_seconds_count")).toBe(1);
      expect(valueOf(after, "mysekai_jobs", { state: "done" })).toBe(1);
      expect(valueOf(after, "mysekai_queue_depth")).toBe(0);

      const page = await (await fetch(`${server.url}/`)).text();
      expect(page).toContain(PLAYER_ID);
      const token = (await reads(server).archive(saveId))!.token;
      const thumbnails = [...page.matchAll(new RegExp(`<img src="(/maps/${token}/[a-z_0-9]+\\.png)"`, "g"))].map((m) => m[1]!);
      expect(thumbnails.length).toBe(5);
      const png = await fetch(`${server.url}${thumbnails[0]}`);
      expect(png.headers.get("content-type")).toBe("image/png");

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as Health).queue?.depth).toBe(0);
    });
  });

  test("MIN_FREE_DISK_MB above the free space: /healthz answers 503 with the reason", async () => {
    await withServer({ MIN_FREE_DISK_MB: "1000000000" }, async (server) => {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      const body = (await health.json()) as Health;
      expect(body.reasons).toEqual(["free disk space below MIN_FREE_DISK_MB"]);
      expect(body.disk.freeBytes).toBeGreaterThan(0);
    });
  });
});
