/**
 * The render worker's collection after a save keeps the allocator's free pages for the next save (they go back
 * after MIMALLOC_PURGE_DELAY), where `Bun.gc(true)` hands them back at once and the next save faults them in.
 * Measured in a process of its own, started with the launch settings: a test runner's heap would blur the count.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { LAUNCH_ENV } from "../../src/launch-env.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** 20 MB in 5 MB buffers (a map's pixmap is ~5 MB), freed, then the collection, then the same again. */
const probe = (trimAbove: string) => `
import { readFileSync } from "node:fs";
import { collectWorkerHeap, TRIM_ABOVE_BYTES } from "./src/pipeline/worker-heap.ts";
const faults = () => Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[7]);
const drawAndFree = () => { for (const b of Array.from({ length: 4 }, () => new Uint8Array(5 << 20).fill(1))) b.buffer.transfer(0); };
drawAndFree();
collectWorkerHeap(${trimAbove});
const counts = [];
for (let round = 0; round < 3; round++) {
  const before = faults();
  drawAndFree();
  counts.push(faults() - before);
  collectWorkerHeap(${trimAbove});
}
console.log(JSON.stringify(counts));
`;

/** Minor faults of each round after the first. */
function faultsPerRound(trimAbove: string): number[] {
  const run = Bun.spawnSync([process.execPath, "-e", probe(trimAbove)], { cwd: ROOT, env: { ...process.env, ...LAUNCH_ENV } });
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString()) as number[];
}

// 20 MB of fresh pages is ~5,100 faults; reused pages take none.
test("after the worker's collection, the next save's buffers reuse the pages the last one freed", () => {
  expect(Math.min(...faultsPerRound("TRIM_ABOVE_BYTES"))).toBeLessThan(500);
});

test("past the resident bound, the collection hands the free pages back", () => {
  expect(Math.min(...faultsPerRound("0"))).toBeGreaterThan(3000);
});
