/** The data API's rate limit over any store of counts: windows from a key's first read, and a refused key kept off the store. */
import { expect, test } from "bun:test";
import { memoryRateWindows, RateLimit, WINDOW_MS, type RateWindows } from "../../src/http/api/rate-limit.ts";

/** The memory store, counting how often the limit asks it (a hub's store is a database round trip each). */
function countedWindows(): RateWindows & { calls: number } {
  const memory = memoryRateWindows();
  const windows = { calls: 0, count: (key: string, now: number) => (windows.calls++, memory.count(key, now)) };
  return windows;
}

test("the rate per window, then the seconds left; a new window from the next read after it ends", async () => {
  const limit = new RateLimit(2, memoryRateWindows(), "peer");
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
  const windows = memoryRateWindows();
  const [byPeer, byToken] = [new RateLimit(1, windows, "peer"), new RateLimit(1, windows, "token")];
  expect([await byPeer.take("10.0.0.1", 0), await byToken.take("10.0.0.1", 0)]).toEqual([0, 0]);
});
