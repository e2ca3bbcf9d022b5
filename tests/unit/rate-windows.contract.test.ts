/**
 * The data API's rate limit over each deployment's store of counts (one SQLite process's memory, a hub's
 * PostgreSQL): windows from a key's first read, a refused key kept off the store, scopes apart, and on a hub the
 * requests of several processes counted once.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { POSTGRES_MISSING } from "../helpers/postgres.ts";
import { postgresRateWindows, RateLimit, sqliteRateWindows, WINDOW_MS, type RateWindowFixture, type RateWindowKind, type RateWindows } from "../helpers/rate-window-stores.ts";

for (const kind of [sqliteRateWindows, postgresRateWindows] satisfies RateWindowKind[]) {
  describe.skipIf(kind.name === "postgres" && POSTGRES_MISSING !== null)(`rate windows on ${kind.name}`, () => {
    let f: RateWindowFixture;
    beforeAll(() => kind.prepare(), 60_000);
    beforeEach(async () => (f = await kind.open()));
    afterEach(() => f.close());

    /** The store, counting how often the limit asks it (a hub's store is a database round trip each). */
    function countedWindows(): RateWindows & { calls: number } {
      const windows = { calls: 0, count: (key: string, now: number) => (windows.calls++, f.windows.count(key, now)) };
      return windows;
    }

    test("a key's window starts at its first read and counts each read; the first read once it ended starts the next", async () => {
      const t = 1_000_000;
      expect(await f.windows.count("peer:a", t)).toEqual({ start: t, count: 1 });
      expect(await f.windows.count("peer:a", t + 1)).toEqual({ start: t, count: 2 });
      expect(await f.windows.count("peer:b", t + 5)).toEqual({ start: t + 5, count: 1 });
      expect(await f.windows.count("peer:a", t + WINDOW_MS - 1)).toEqual({ start: t, count: 3 });
      expect(await f.windows.count("peer:a", t + WINDOW_MS)).toEqual({ start: t + WINDOW_MS, count: 1 });
    });

    test("the rate per window, then the seconds left; a new window from the next read after it ends", async () => {
      const limit = new RateLimit(2, f.windows, "peer");
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
      const [byPeer, byToken] = [new RateLimit(1, f.windows, "peer"), new RateLimit(1, f.windows, "token")];
      expect([await byPeer.take("10.0.0.1", 0), await byToken.take("10.0.0.1", 0)]).toEqual([0, 0]);
    });

    // SQLite's service is one process (its instance lock): only a hub has others to share the counts with.
    if (kind.name === "postgres") test("requests of one key spread over two processes at once are each counted once, in one window", async () => {
      const other = (await f.another())!;
      const t = 9_000_000;
      const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? f.windows : other).count("token:bot", t + i)));
      expect(counts.map((window) => window.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(counts.map((window) => window.start)).size).toBe(1);
      // The 21st read, on either process, is past a limit of 20 a minute; the same name under another scope is not.
      const start = counts.find((window) => window.count === 1)!.start;
      expect(await new RateLimit(20, other, "token").take("bot", t + 30)).toBe(Math.ceil((start + WINDOW_MS - (t + 30)) / 1000));
      expect(await new RateLimit(20, f.windows, "peer").take("bot", t + 30)).toBe(0);
    });
  });
}
