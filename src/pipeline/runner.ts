/** The poller loop: N slots claim jobs, run their stage under a renewed lease, and record how each moved on. */
import { logInfo, logWarn } from "../log.ts";
import { metrics } from "../metrics.ts";
import { HeapSweeper } from "./heap-sweep.ts";
import { DrawTickets, drawingStages, jobsInFlight } from "./concurrency.ts";
import { SlotWakes, type WakeReason } from "./slot-wakes.ts";
import { redactError } from "./redact.ts";
import type { PipelineDeps, Stage, StageContext, StageResult } from "./stage.ts";
import { archiveStage } from "./stages/archive.ts";
import { evaluateStage } from "./stages/evaluate.ts";
import { generateStage } from "./stages/generate.ts";
import { notifyStage } from "./stages/notify.ts";
import { runInTaskProcess, TaskProcessDied } from "./task-process.ts";
import { outOfSpace, unavailableStore } from "../store-unavailable.ts";
import { changeFor, storeAwayChange, type RecordedResult, type RunResult } from "./job-change.ts";
import { ConsumerLane } from "./consumer-lane.ts";
import { WriteHealth } from "./write-health.ts";
import { TaskTimeoutError } from "./worker-pool.ts";
import { holderOf, LeaseLostError, retryChange, type ClaimedJob, type ReportSubject } from "../store/model/jobs.ts";

export interface Stages {
  evaluate: Stage<ReportSubject>;
  generate: Stage;
  archive: Stage;
  notify: Stage;
}

const STAGES: Stages = {
  evaluate: evaluateStage,
  generate: generateStage,
  archive: archiveStage,
  notify: notifyStage,
};

export interface Pipeline {
  /** Call after committing a new job: a sleeping slot picks it up within a few ms (after the answer is written). */
  wake: () => void;
  /** Another process committed new work (its LISTEN): one sleeping slot looks. */
  hear: () => void;
  /** Call after requeueing `jobs` at once (the owner's retry): a sleeping slot for each. */
  wakeFor: (jobs: number) => void;
  /** Before committing a new job this process answers for: whether a free slot will take it (slot-wakes.ts). */
  keepsNextJob: () => boolean;
  /** Why this process's pipeline cannot write (a full disk, a database refusing writes), or null (write-health.ts). */
  writeProblem: () => string | null;
  /** Stops claiming, waits up to `graceMs` for running stages, leaves the rest queued. */
  stop: (graceMs: number) => Promise<void>;
}

/**
 * `ingestQuiet` resolves once uploads and reports pause (src/ingest/activity.ts). Whoever wakes us is still
 * answering a request, and more may follow at once: a slot that claimed then would read and commit on this
 * thread and draw on both cores while those answers wait. A stage started a few ms later costs nothing.
 */
export function startPipeline(deps: PipelineDeps, ingestQuiet: () => Promise<void>, sweeper = new HeapSweeper()): Pipeline {
  const { jobs, config } = deps;
  let stopping = false;
  let stopped!: (release: () => void) => void;
  const stopSignal = new Promise<() => void>((resolve) => (stopped = resolve));
  const wakes = new SlotWakes();
  const around: JobSurroundings = { lane: new ConsumerLane(config.notify.consumers.concurrency), writes: new WriteHealth() };
  const tickets = new DrawTickets(drawingStages(config));

  /** Jobs of saves that can be saves running now in this process' slots. */
  let realRunning = 0;
  const slot = async () => {
    let woke: WakeReason = "timer";
    while (!stopping) {
      let release = () => {};
      try {
        await ingestQuiet();
        release = await Promise.race([tickets.take(), stopSignal]);
        if (stopping) break;
        sweeper.sweepIfDue();
        wakes.looks();
        let job: ClaimedJob | null = null;
        let due: number | null = null;
        let missed = false;
        try {
          job = await jobs.claim(Date.now(), config.pipeline.leaseMs, realRunning > 0);
          around.writes.claimed();
          if (!job) due = await jobs.nextDueAt();
        } finally {
          missed = wakes.doneLooking(job !== null);
          if (job === null || (job.stage !== "generate" && job.stage !== "evaluate")) release();
        }
        if (job) {
          // A poll or news that found work: more may be queued (an owner's retry is one wake-up for many jobs),
          // and the other slots sleep on. A local job's own wake-up stands for that job alone.
          if (woke === "timer" || woke === "news") wakes.hear();
          woke = "job";
          if (!job.implausible) realRunning++;
          try {
            await runJob(deps, job, STAGES, around);
          } finally {
            if (!job.implausible) realRunning--;
            release();
          }
          // Junk holds next to nothing here: thousands of them must not buy a full collection every 8. Nor
          // do reports: evaluate holds a report's bodies only while the worker reads them (a save it finds
          // gets jobs of its own, which count), and a stream of reports keeps the pipeline running between
          // them, so each collection (~5 ms of the HTTP thread) fell in the middle of the stream.
          if (!job.implausible && job.subject.kind === "save") sweeper.jobDone();
          // A stage that finished without waiting (junk fails in microseconds) resolved only microtasks: let
          // requests and worker replies in before the next claim.
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        if (missed) continue;
        const wait = due === null ? config.pipeline.pollMs : Math.min(config.pipeline.pollMs, Math.max(0, due - Date.now()));
        woke = await wakes.sleep(Math.max(wait, 5));
      } catch (error) {
        release();
        // The database refused (disk full, locked ...): keep the loop alive and try again later; said once.
        around.writes.failed(redactError(error, deps), "claim");
        woke = await wakes.sleep(config.pipeline.pollMs);
      }
    }
  };
  const slots = Array.from({ length: jobsInFlight(config) }, () => slot());

  return {
    wake: wakes.wake,
    hear: wakes.hear,
    wakeFor: wakes.wakeFor,
    keepsNextJob: wakes.keepsNextJob,
    writeProblem: () => around.writes.current(),
    stop: async (graceMs) => {
      stopping = true;
      stopped(() => {});
      wakes.wakeAll();
      const finished = Promise.all(slots)
        .then(() => around.lane.drain())
        .then(() => true);
      // A timer, not Bun.sleep: once the stages finish it is cleared, so it cannot keep a stopped process alive.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
      const inTime = await Promise.race([finished, timedOut]);
      clearTimeout(timer);
      if (!inTime) logWarn("JOB", "shutdown grace over; running stages stay queued", { graceMs });
    },
  };
}

/** What a process's slots share: consumer webhooks' lane, and whether writes go through. */
export interface JobSurroundings {
  lane: ConsumerLane;
  writes: WriteHealth;
}

/** A consumer lane full: the job comes back this much later (its chat pushes already went out). */
const LANE_FULL_RETRY_MS = 1000;

/**
 * Runs a claimed job's stage and records how it moved on (`stages` lets tests run the loop's logic with their own).
 * A stage that leaves only consumer webhooks hands them to `lane` and returns at once; without a lane they run here.
 */
export async function runJob(deps: PipelineDeps, job: ClaimedJob, stages: Stages = STAGES, around: JobSurroundings | null = null): Promise<void> {
  const { config } = deps;
  const started = performance.now();
  const heartbeat = setInterval(() => {
    // A busy database: the next beat tries again, and the lease outlasts a few missed beats.
    deps.jobs.renew(holderOf(job), Date.now(), config.pipeline.leaseMs).catch(() => {});
  }, Math.max(500, config.pipeline.leaseMs / 3));

  // The service died while this job ran before: its tasks run in a process of their own (task-process.ts).
  const isolated: PipelineDeps = { ...deps, workers: { run: (task, request) => runInTaskProcess(task, request, config.pipeline.taskTimeoutMs) } };
  const result = await settle(deps, () => runStage(stages, job.isolated ? isolated : deps, job, { now: Date.now() }));
  const finish = async (settled: RecordedResult) => {
    clearInterval(heartbeat);
    await recordResult(deps, job, settled, Math.round(performance.now() - started), around?.writes ?? null);
  };
  if (result.kind !== "consumer_lane") return finish(result);
  const rest = async () => {
    const settled = await settle(deps, result.rest);
    await finish(settled.kind === "consumer_lane" ? { kind: "error", error: "consumer lane handed on twice" } : settled);
  };
  if (around === null) return rest();
  // As the slot's loop does: the job's lease runs out and it comes back.
  const inLane = () => rest().catch((error) => logWarn("JOB", "consumer lane error", { job: job.id, error: redactError(error, deps) }));
  if (around.lane.tryRun(inLane)) return;
  await finish({ kind: "later", runAt: Date.now() + LANE_FULL_RETRY_MS, note: "consumer webhooks wait for room in their lane" });
}

/** What the stage said, or what its failure means. */
async function settle(deps: PipelineDeps, stage: () => Promise<StageResult>): Promise<RunResult> {
  try {
    return await stage();
  } catch (error) {
    if (error instanceof TaskProcessDied) return { kind: "task_process_died", how: error.how };
    if (unavailableStore(error) !== null) return { kind: "store_away", error: redactError(error, deps) };
    return error instanceof TaskTimeoutError ? { kind: "timeout", timeout: error } : { kind: "error", error: redactError(error, deps) };
  }
}

/** Records how the job moved on, with the stage's writes, and logs it. */
async function recordResult(deps: PipelineDeps, job: ClaimedJob, result: RecordedResult, ms: number, health: WriteHealth | null): Promise<void> {
  const { jobs, stageStore, config } = deps;
  const { subject } = job;
  const saveId = subject.kind === "save" ? subject.saveId : undefined;
  const player = saveId === undefined ? undefined : (job.player ?? (await stageStore.playerOf(saveId).catch(() => undefined)));
  const report = subject.kind === "report" ? subject.reportId : undefined;
  const fields = { job: job.id, save: saveId, report, player, stage: job.stage, attempt: job.attempts };
  metrics.stageFinished(job.stage, ms);
  const now = Date.now();
  try {
    // A push's record must not be undone (it would be sent again), nor a move whose old folder afterCommit
    // removes; any other stage just runs again.
    const durable = job.stage === "notify" || (result.kind === "advance" && result.durable === true);
    const { change, outcome, note } = changeFor(deps, job, result, now);
    const writes = result.kind === "advance" || result.kind === "fail" ? result.writes : undefined;
    const recorded = await stageStore.record(job, writes, change, now, durable);
    if (result.kind === "error" && outOfSpace(result.error)) health?.failed(result.error);
    else health?.recorded();
    try {
      if ("afterCommit" in result) result.afterCommit?.(recorded);
    } catch (error) {
      logWarn("JOB", "after-commit step failed", { ...fields, error: redactError(error, deps) });
    }
    const moved = recorded.moved === "redraw" ? REDRAWN : { outcome, note };
    const log = moved.outcome === "failed" || moved.outcome === "retry" ? logWarn : logInfo;
    log("JOB", "stage finished", { ...fields, ms, outcome: moved.outcome, note: moved.note });
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logWarn("JOB", "lease lost; another slot owns the job", { ...fields, ms });
      return;
    }
    // The stage's writes could not be committed (disk full, a constraint): count it as a failed attempt; a
    // database away costs no attempt (this transition may well fail too: then the lease runs out and it comes back).
    const reason = `could not record the stage: ${redactError(error, deps)}`;
    health?.failed(reason);
    const change = unavailableStore(error) !== null ? storeAwayChange(job, reason, now) : retryChange(job, reason, config.pipeline.backoffMs, now);
    await jobs.transition(job, change, now);
    logWarn("JOB", "stage finished", { ...fields, ms, outcome: change.state === "failed" ? "failed" : "retry", note: reason });
  }
}

/** Hands the job to its stage: evaluate takes a report, the others a save; any other pairing fails for good. */
function runStage(stages: Stages, deps: PipelineDeps, job: ClaimedJob, ctx: StageContext): Promise<StageResult> {
  const { stage, subject } = job;
  if (stage === "evaluate" && subject.kind === "report") return stages.evaluate(deps, { ...job, subject }, ctx);
  if (stage !== "evaluate" && stage !== "done" && subject.kind === "save") return stages[stage](deps, { ...job, subject }, ctx);
  return Promise.resolve({ kind: "fail", reason: `stage ${stage} cannot run a ${subject.kind} job` });
}

const REDRAWN = { outcome: "next=generate", note: "the save took a real player id while the stage ran: drawing again" };
