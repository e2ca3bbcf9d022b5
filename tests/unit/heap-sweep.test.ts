import { expect, test } from "bun:test";
import { eventually } from "../../scripts/lib/eventually.ts";
import { storeReport } from "../../src/db/uploads/sqlite-store.ts";
import type { HarExtraction } from "../../src/ingest/har.ts";
import { HeapSweeper } from "../../src/pipeline/heap-sweep.ts";
import { startPipeline } from "../../src/pipeline/runner.ts";
import { openHarness } from "../helpers/pipeline-harness.ts";
import { dbReads } from "../helpers/store-reads.ts";

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

test("a report's evaluate job does not count towards a collection: a stream of reports buys none", async () => {
  const harness = openHarness();
  let counted = 0;
  class CountingSweeper extends HeapSweeper {
    override jobDone(): void {
      counted++;
      super.jobDone();
    }
  }
  const pipeline = startPipeline(harness.deps, async () => {}, new CountingSweeper(1, () => {}));
  try {
    const nothing: HarExtraction = {
      shape: "har",
      entryCount: 1,
      candidates: [],
      emptyBodies: 0,
      otherBodies: 1,
      skippedEntries: 0,
      skippedBodies: 0,
      notes: [],
    };
    const reportId = harness.db.transaction((tx) => storeReport(tx, nothing, {}, Date.now()));
    pipeline.wake();
    await eventually(async () => (await dbReads(harness.db).jobOfReport(reportId))?.state === "done", 5_000, "the report's evaluate job done");
    // The runner counts a job right after recording it: let that turn finish.
    await Bun.sleep(0);
    expect(counted).toBe(0);
  } finally {
    await pipeline.stop(1_000);
    harness.close();
  }
});
