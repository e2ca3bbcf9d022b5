/**
 * The runner contract suites' deps, rows and drain (tests/contract/runner.*.contract.test.ts), on the store under
 * test: fresh deps and a capture of the log for each test, handed to the suite by `onEach`.
 */
import { afterEach, beforeEach, spyOn } from "bun:test";
import { unknownResourceLog } from "../../src/pipeline/unknown-resources.ts";
import { flushLog } from "../../src/log.ts";
import { runJob, type Stages } from "../../src/pipeline/runner.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import type { JobRow } from "../../src/store/model/jobs.ts";
import type { StoreUnderTest } from "./contract-stores.ts";
import { BACKOFF_MS, LEASE_MS, SECRET } from "./pipeline-harness.ts";
import { drawnWrites } from "./rows.ts";

export { BACKOFF_MS, LEASE_MS, SECRET };
export const MINUTE = 60_000;

/** A job's fields as a test sets them; the job of a new save unless `saveId` or `reportId` is given. */
export type JobFields = Partial<Omit<JobRow, "id">> & { runAt: number };

export function runnerFixture(s: StoreUnderTest, onEach: (fresh: { deps: PipelineDeps; t0: number }) => void) {
  let deps: PipelineDeps;
  let logs: string[];
  let spies: ReturnType<typeof spyOn>[];
  let t0: number;
  beforeEach(() => {
    const config = { ...s.config, pipeline: { ...s.config.pipeline, leaseMs: LEASE_MS, backoffMs: BACKOFF_MS } };
    const { deliveries, jobs, stageStore, notifyReads, watch, nudges } = s.stores;
    const routing = { players: new Map(), barkKeys: {} };
    const workers = { run: () => Promise.reject(new Error("the fake stages ask no worker")) };
    deps = { deliveries, jobs, stageStore, notifyReads, watch, config, workers, routing, links: { linkedPlayer: async () => null }, secrets: [SECRET], archive: s.archive, nudge: { nudges, links: { linkedPlayer: async () => null }, routing, config, secrets: [SECRET] }, logUnknownResources: unknownResourceLog() } as unknown as PipelineDeps;
    logs = [];
    const capture = (...parts: unknown[]) => void logs.push(parts.join(" "));
    spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "warn").mockImplementation(capture)];
    t0 = Date.now();
    onEach({ deps, t0 });
  });
  afterEach(() => {
    flushLog();
    for (const spy of spies) spy.mockRestore();
  });
  const f = {
    addSave: (at: number) => s.rows.save({ at }),
    addReport: (at: number) => s.rows.report(undefined, at),
    /** The job of the save or report (as its upload or report enqueued it) given `fields` directly: returns its id. */
    addJob: async ({ saveId, reportId, ...fields }: JobFields) => {
      const job = reportId != null ? await s.jobRows.jobOfReport(reportId) : await s.jobRows.jobOfSave(saveId ?? (await s.rows.save({ at: fields.runAt })));
      await s.jobRows.set(job.id, { stage: "generate", state: "pending", createdAt: fields.runAt, updatedAt: fields.runAt, ...fields });
      return job.id;
    },
    /** Another save's archive row in `relPath` (to stand in a stage's way), its job at rest. */
    addOtherArchive: async (relPath: string) => {
      const saveId = await s.rows.save({ at: t0, playerId: "1000000000000000001" });
      await s.jobRows.set((await s.jobRows.jobOfSave(saveId)).id, { stage: "done", state: "done" });
      await s.sql.insert("archives", { saveId, playerId: "1000000000000000001", relPath, token: crypto.randomUUID(), files: ["save.bin"], createdAt: 0 });
    },
    job: (id: number) => s.jobRows.job(id),
    archiveOf: async (saveId: number) => (await s.stores.stageStore.saveToDraw(saveId))?.archivePath ?? null,
    outputsOf: async (saveId: number) => (await s.stores.stageStore.saveToDraw(saveId))?.save.outputs,
  };

  /** Claims due jobs at `now` (oldest first, as the poller does) and runs each to its recorded outcome; returns how many ran. */
  async function runUntilEmpty(stages: Stages, now: number, max = 50): Promise<number> {
    for (let ran = 0; ran < max; ran += 1) {
      const job = await s.stores.jobs.claim(now, LEASE_MS, false);
      if (!job) return ran;
      await runJob(deps, job, stages);
    }
    throw new Error(`queue not empty after ${max} runs`);
  }
  const logged = () => (flushLog(), logs.join("\n"));
  /** Writes that record the save's archive in `folder`: visible proof of whether the stage's writes landed. */
  const drawn = (saveId: number, folder = "drawn") => drawnWrites(saveId, `by-id/p/${folder}-${saveId}`);
  const archivedAt = (saveId: number) => f.archiveOf(saveId);
  return { f, runUntilEmpty, logged, drawn, archivedAt };
}
