import { expect, test } from "bun:test";
import { HeapSweeper } from "../../src/pipeline/heap-sweep.ts";

test("the HTTP thread collects once every n jobs, only when asked at a quiet moment", () => {
  let collections = 0;
  const sweeper = new HeapSweeper(3, () => collections++);
  const seen: number[] = [];
  for (let job = 1; job <= 7; job++) {
    sweeper.jobDone();
    sweeper.sweepIfDue();
    seen.push(collections);
  }
  expect(seen).toEqual([0, 0, 1, 1, 1, 2, 2]);
  // Jobs that finish while uploads keep arriving are counted; the collection waits for the next quiet moment.
  sweeper.jobDone();
  sweeper.jobDone();
  sweeper.jobDone();
  sweeper.jobDone();
  expect(collections).toBe(2);
  sweeper.sweepIfDue();
  sweeper.sweepIfDue();
  expect(collections).toBe(3);
});
