import { expect, test } from "bun:test";
import { heapSweeper } from "../../src/pipeline/heap-sweep.ts";

test("the HTTP thread collects once every n jobs, not before", () => {
  let collections = 0;
  const afterJob = heapSweeper(3, () => collections++);
  const counts = Array.from({ length: 7 }, () => {
    afterJob();
    return collections;
  });
  expect(counts).toEqual([0, 0, 1, 1, 1, 2, 2]);
});
