import { describe, expect, test } from "bun:test";
import { IngestActivity } from "../../src/ingest/activity.ts";
import { ownerApp } from "../helpers/owner-app.ts";

const QUIET_MS = 40;
const MAX_WAIT_MS = 400;

async function timed(wait: Promise<void>): Promise<number> {
  const started = performance.now();
  await wait;
  return performance.now() - started;
}

describe("IngestActivity.quiet", () => {
  test("with nothing received yet it resolves at once", async () => {
    expect(await timed(new IngestActivity(QUIET_MS, MAX_WAIT_MS).quiet())).toBeLessThan(QUIET_MS);
  });

  test("a request in flight holds it back, for maxWaitMs at most", async () => {
    const activity = new IngestActivity(QUIET_MS, MAX_WAIT_MS);
    activity.begin();
    const waited = await timed(activity.quiet());
    expect(waited).toBeGreaterThanOrEqual(MAX_WAIT_MS - 5);
    expect(waited).toBeLessThan(MAX_WAIT_MS + 200);
  });

  test("it resolves quietMs after the last request ends, not before", async () => {
    const activity = new IngestActivity(QUIET_MS, MAX_WAIT_MS);
    activity.begin();
    setTimeout(() => activity.end(), 100);
    const waited = await timed(activity.quiet());
    expect(waited).toBeGreaterThanOrEqual(100 + QUIET_MS - 5);
    expect(waited).toBeLessThan(MAX_WAIT_MS);
  });

  test("requests back to back, with pauses shorter than quietMs, keep it waiting", async () => {
    const activity = new IngestActivity(QUIET_MS, MAX_WAIT_MS);
    let lastEnd = 0;
    const burst = (async () => {
      for (let i = 0; i < 8; i++) {
        activity.begin();
        await Bun.sleep(10);
        activity.end();
        lastEnd = performance.now();
        await Bun.sleep(QUIET_MS / 4);
      }
    })();
    await Bun.sleep(1);
    await activity.quiet();
    const resolvedAt = performance.now();
    await burst;
    expect(resolvedAt - lastEnd).toBeGreaterThanOrEqual(QUIET_MS - 5);
  });

  test("once a wait ran out, the next ones return at once while requests keep coming; a pause closes the gate again", async () => {
    const activity = new IngestActivity(QUIET_MS, MAX_WAIT_MS);
    activity.begin();
    expect(await timed(activity.quiet())).toBeGreaterThanOrEqual(MAX_WAIT_MS - 5);
    // Still in flight (a dripping body, a flood): the queue pays that one wait, not one per stage.
    expect(await timed(activity.quiet())).toBeLessThan(QUIET_MS / 2);
    activity.end();
    activity.begin();
    expect(await timed(activity.quiet())).toBeLessThan(QUIET_MS / 2);
    activity.end();
    await Bun.sleep(QUIET_MS + 10);
    // A quiet moment was seen: the next request holds stages back again.
    expect(await timed(activity.quiet())).toBeLessThan(QUIET_MS / 2);
    activity.begin();
    const waited = await timed(activity.quiet());
    activity.end();
    expect(waited).toBeGreaterThanOrEqual(MAX_WAIT_MS - 5);
  });

  test("an end without a begin does not hide the next request", async () => {
    const activity = new IngestActivity(QUIET_MS, MAX_WAIT_MS);
    activity.end();
    activity.end();
    activity.begin();
    expect(await timed(activity.quiet())).toBeGreaterThanOrEqual(MAX_WAIT_MS - 5);
  });
});

describe("the app counts uploads and reports", () => {
  test("past the token check every upload and report begins and ends, refused ones too; other routes do not count", async () => {
    const seen = { begun: 0, ended: 0 };
    const app = ownerApp({ UPLOAD_TOKEN: "upload-token-0123456789" }, undefined, { begin: () => seen.begun++, end: () => seen.ended++ });
    try {
      expect((await app.request("/uploadSaveData", { method: "POST", body: "x" })).status).toBe(401);
      expect(seen).toEqual({ begun: 0, ended: 0 });
      const withToken = { method: "POST", body: "x", headers: { "x-upload-token": "upload-token-0123456789" } };
      expect((await app.request("/uploadSaveData", withToken)).status).toBe(400);
      expect((await app.request("/capture/report", { method: "POST", body: "not json" })).status).toBe(400);
      expect(seen).toEqual({ begun: 2, ended: 2 });
      expect((await app.request("/healthz")).status).toBe(200);
      expect(seen).toEqual({ begun: 2, ended: 2 });
    } finally {
      app.cleanup();
    }
  });
});
