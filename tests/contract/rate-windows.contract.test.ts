/**
 * The data API's rate limit over each deployment's store of counts (one SQLite process's memory, a hub's
 * PostgreSQL): windows from a key's first read, a refused key kept off the store, scopes apart, and on a hub the
 * requests of several processes counted once.
 */
import { beforeEach, expect, test } from "bun:test";
import { RateLimit } from "../../src/http/api/rate-limit.ts";
import { WINDOW_MS, type RateWindows } from "../../src/store/ports/rate-windows.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

describeEachStore("rate windows", (s) => {
  let rates: RateWindows;
  beforeEach(() => void (rates = s.stores.apiRates));

  /** The store, counting how often the limit asks it (a hub's store is a database round trip each). */
  function countedWindows(): RateWindows & { calls: number } {
    const windows = { calls: 0, count: (key: string, now: number) => (windows.calls++, rates.count(key, now)) };
    return windows;
  }

  test("a key's window starts at its first read and counts each read; the first read once it ended starts the next", async () => {
    const t = 1_000_000;
    expect(await rates.count("peer:a", t)).toEqual({ start: t, count: 1 });
    expect(await rates.count("peer:a", t + 1)).toEqual({ start: t, count: 2 });
    expect(await rates.count("peer:b", t + 5)).toEqual({ start: t + 5, count: 1 });
    expect(await rates.count("peer:a", t + WINDOW_MS - 1)).toEqual({ start: t, count: 3 });
    expect(await rates.count("peer:a", t + WINDOW_MS)).toEqual({ start: t + WINDOW_MS, count: 1 });
  });

  test("the rate per window, then the seconds left; a new window from the next read after it ends", async () => {
    const limit = new RateLimit(2, rates, "peer");
    const t = 1_000_000;
    expect([await limit.take("a", t), await limit.take("a", t + 1), await limit.take("a", t + 10_000)]).toEqual([0, 0, 50]);
    expect(await limit.take("b", t + 10_000)).toBe(0);
    expect(await limit.take("a", t + WINDOW_MS)).toBe(0);
  });

  test("a refused key is answered from this process until its window ends, without asking the store", async () => {
    const windows = countedWindows();
    const limit = new RateLimit(1, windows, "token");
    const t = 5_000_000;
    await limit.take("bot", t);
    expect(await limit.take("bot", t + 1)).toBe(60);
    const asked = windows.calls;
    for (let i = 0; i < 100; i++) expect(await limit.take("bot", t + 2 + i)).toBeGreaterThan(0);
    expect(windows.calls).toBe(asked);
    expect(await limit.take("bot", t + WINDOW_MS)).toBe(0);
    expect(windows.calls).toBe(asked + 1);
  });

  test("scopes keep a token named like an address apart from that address", async () => {
    const [byPeer, byToken] = [new RateLimit(1, rates, "peer"), new RateLimit(1, rates, "token")];
    expect([await byPeer.take("10.0.0.1", 0), await byToken.take("10.0.0.1", 0)]).toEqual([0, 0]);
  });

  // SQLite's service is one process (its instance lock): only a hub has others to share the counts with.
  if (s.hub) test("requests of one key spread over two processes at once are each counted once, in one window", async () => {
    const other = (await s.another()).apiRates;
    const t = 9_000_000;
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? rates : other).count("token:bot", t + i)));
    expect(counts.map((window) => window.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(counts.map((window) => window.start)).size).toBe(1);
    // The 21st read, on either process, is past a limit of 20 a minute; the same name under another scope is not.
    const start = counts.find((window) => window.count === 1)!.start;
    expect(await new RateLimit(20, other, "token").take("bot", t + 30)).toBe(Math.ceil((start + WINDOW_MS - (t + 30)) / 1000));
    expect(await new RateLimit(20, rates, "peer").take("bot", t + 30)).toBe(0);
  });
});
