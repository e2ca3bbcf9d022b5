/**
 * The pipeline's wake-ups (src/pipeline/slot-wakes.ts): one new job wakes one sleeping slot, a free slot can be
 * promised to the next job (so a hub's other processes need not hear of it), and a wake-up that came while a slot
 * was looking is not lost.
 */
import { expect, test } from "bun:test";
import { eventually } from "../../scripts/lib/eventually.ts";
import { SlotWakes, type WakeReason } from "../../src/pipeline/slot-wakes.ts";

const LONG = 60_000;

/** Puts `n` slots to sleep (as after a fruitless look); returns how each woke, in order, as they wake. */
function sleepers(wakes: SlotWakes, n: number, ms = LONG) {
  const woke: (WakeReason | null)[] = Array.from({ length: n }, () => null);
  const done = Array.from({ length: n }, (_, i) => {
    wakes.looks();
    wakes.doneLooking(false);
    return wakes.sleep(ms).then((reason) => void (woke[i] = reason));
  });
  return { woke, done };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

test("a new job wakes one sleeping slot, not all of them; another process's news wakes one more", async () => {
  const wakes = new SlotWakes();
  const { woke } = sleepers(wakes, 3);
  // The newest sleeper first: the oldest keeps the process's poll.
  wakes.wake();
  await tick();
  expect(woke).toEqual([null, null, "job"]);
  wakes.hear();
  await tick();
  expect(woke).toEqual([null, "news", "job"]);
  wakes.wakeAll();
  await tick();
  expect(woke).toEqual(["stop", "news", "job"]);
});

test("the owner's retry of many jobs wakes a sleeping slot for each, as many as sleep", async () => {
  const wakes = new SlotWakes();
  const { woke } = sleepers(wakes, 3);
  wakes.wakeFor(2);
  await tick();
  expect(woke).toEqual([null, "news", "news"]);
  wakes.wakeFor(5);
  await tick();
  expect(woke).toEqual(["news", "news", "news"]);
});

test("one sleeping slot polls, not each; when it leaves, another polls a whole interval later", async () => {
  const wakes = new SlotWakes();
  const { woke } = sleepers(wakes, 3, 200);
  await eventually(() => woke[0] === "timer", 5_000, "the first poll");
  expect(woke).toEqual(["timer", null, null]);
  await eventually(() => woke[1] === "timer", 5_000, "the second poll");
  expect(woke).toEqual(["timer", "timer", null]);
  // A slot due sooner (a retry's run time) polls at its own time beside the one keeping the poll.
  const soon = wakes.sleep(5);
  expect(await soon).toBe("timer");
  wakes.wakeAll();
});

test("each free slot is promised once: the commit after them wakes the other processes", async () => {
  const wakes = new SlotWakes();
  const { woke } = sleepers(wakes, 2);
  expect([wakes.keepsNextJob(), wakes.keepsNextJob(), wakes.keepsNextJob()]).toEqual([true, true, false]);
  // The promised jobs' wakes take the two slots; the promises are then spent.
  wakes.wake();
  wakes.wake();
  await tick();
  expect(woke).toEqual(["job", "job"]);
  expect(wakes.keepsNextJob()).toBe(false);
  wakes.wakeAll();
});

test("a promise never kept (a duplicate upload) is forgotten at the next poll", async () => {
  const wakes = new SlotWakes();
  const { woke, done } = sleepers(wakes, 1, 20);
  expect(wakes.keepsNextJob()).toBe(true);
  expect(wakes.keepsNextJob()).toBe(false);
  await Promise.all(done);
  expect(woke).toEqual(["timer"]);
  sleepers(wakes, 1);
  expect(wakes.keepsNextJob()).toBe(true);
  wakes.wakeAll();
});

test("a wake-up while the only free slot is still looking makes it look again instead of sleeping past the job", () => {
  const wakes = new SlotWakes();
  wakes.looks();
  wakes.wake();
  expect(wakes.doneLooking(false)).toBe(true);
  // Only once: the next fruitless look sleeps.
  wakes.looks();
  expect(wakes.doneLooking(false)).toBe(false);
  // A slot that found a job needs no second look.
  wakes.looks();
  wakes.wake();
  expect(wakes.doneLooking(true)).toBe(false);
});
