/**
 * The runner on SQLite only, where SQLite differs: which commits wait for the disk (synchronous NORMAL for a
 * replayable stage record, FULL for notify's), and one process per file at start-up and at a clean stop. The
 * runner's bookkeeping on both stores is runner.*.contract.test.ts.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { replayableCommit } from "../../src/db/sqlite/open.ts";
import { claimJob, reclaimOrphans, releaseRunning } from "../../src/db/jobs/index.ts";
import { countingStage, fakeStages, insertJob, insertSave, jobRow, LEASE_MS, openHarness, runUntilEmpty, type Harness } from "../helpers/pipeline-harness.ts";
import { drawnWrites } from "../helpers/rows.ts";
import { POISON_CRASHES, type JobSubject } from "../../src/store/model/jobs.ts";
import type { JobStage } from "../../src/store/model/jobs.ts";

const MINUTE = 60_000;
let h: Harness;
let t0: number;
beforeEach(() => {
  h = openHarness();
  t0 = Date.now();
});
afterEach(() => h.close());

/** Writes that record the save's archive in `folder`: visible proof of whether the stage's writes landed. */
const drawn = (saveId: number, folder = "drawn") => drawnWrites(saveId, `by-id/p/${folder}-${saveId}`);

/** The connection's synchronous setting at each transaction the stage store opens (the one a stage is recorded in). */
function synchronousAtEachRecord(): { seen: number[]; restore: () => void } {
  const seen: number[] = [];
  const original = h.db.transaction.bind(h.db);
  const spy = spyOn(h.db, "transaction").mockImplementation(((...args: Parameters<typeof original>) => {
    seen.push((h.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous);
    return original(...args);
  }) as typeof h.db.transaction);
  return { seen, restore: () => spy.mockRestore() };
}

describe("stage results", () => {
  test("a stage's writes commit without waiting for the disk, unless it asks to be durable", async () => {
    // The setting of the connection the stage's writes are committed on, read as its transaction opens.
    const { seen, restore } = synchronousAtEachRecord();
    for (const durable of [false, true]) {
      const saveId = insertSave(h.db, t0);
      insertJob(h.db, { saveId, runAt: t0 });
      const generate = countingStage(() => ({ kind: "advance", next: "done", durable, writes: drawn(saveId) }));
      expect(await runUntilEmpty(h, fakeStages({ generate }), { now: t0 + MINUTE })).toBe(1);
    }
    restore();
    const [NORMAL, FULL] = [1, 2];
    expect(seen).toEqual([NORMAL, FULL]);
  });

});

describe("crashes and takeovers", () => {
  test("a clean shutdown releases running jobs without counting a death or an attempt", () => {
    const id = insertJob(h.db, { runAt: t0 });
    expect(claimJob(h.db, t0, LEASE_MS)!.id).toBe(id);
    expect(releaseRunning(h.db, t0)).toBe(1);
    expect(jobRow(h.db, id)).toMatchObject({ state: "pending", attempts: 0, process_deaths: 0, crashes: 0, lease_id: null });
    expect(reclaimOrphans(h.db, t0)).toBe(0);
  });

  test("orphan reclaim: a job left running by a dead process waits out its lease unless reclaimed at start-up", async () => {
    const id = insertJob(h.db, { runAt: t0 - MINUTE, state: "running", attempts: 1, leaseId: "dead", leaseExpiresAt: t0 + LEASE_MS });
    const generate = countingStage(() => ({ kind: "advance", next: "done" }));
    const stages = fakeStages({ generate });

    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(0);
    expect(reclaimOrphans(h.db, t0)).toBe(1);
    expect(await runUntilEmpty(h, stages, { now: t0 })).toBe(1);
    expect(generate.runs).toBe(1);
    expect(jobRow(h.db, id).state).toBe("done");
  });

});

describe("which commits wait for the disk", () => {
  const synchronous = () => (h.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  const FULL = 2;
  const NORMAL = 1;

  test("stage records are replayable (no fsync) except notify's, whose push must never be undone; FULL stays the default", async () => {
    const saveId = insertSave(h.db, t0);
    insertJob(h.db, { saveId, runAt: t0 });
    const { seen, restore } = synchronousAtEachRecord();
    const step = (next: JobStage) => countingStage(() => ({ kind: "advance", next }));
    const stages = fakeStages({ generate: step("archive"), archive: step("notify"), notify: step("done") });
    expect(await runUntilEmpty(h, stages, { now: t0 + MINUTE })).toBe(3);
    restore();
    // generate, archive, notify in turn.
    expect(seen).toEqual([NORMAL, NORMAL, FULL]);
    expect(synchronous()).toBe(FULL);
  });

  test("a replayable write that throws still leaves the connection at FULL", () => {
    expect(() =>
      replayableCommit(h.db, () => {
        throw new Error("disk full");
      }),
    ).toThrow("disk full");
    expect(synchronous()).toBe(FULL);
  });
});
