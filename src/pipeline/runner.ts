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
import { unavailableStore } from "../store-unavailable.ts";
import { afterTimeout } from "./timeout-policy.ts";
import { TaskTimeoutError } from "./worker-pool.ts";
import { advanceChange, holderOf, LeaseLostError, retryChange, taskProcessDiedChange, type ClaimedJob, type ReportSubject, type Transition } from "../store/model/jobs.ts";

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
            await runJob(deps, job);
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
        // The database refused (disk full, locked ...): keep the loop alive and try again later.
        logWarn("JOB", "pipeline loop error", { error: redactError(error, deps) });
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
    stop: async (graceMs) => {
      stopping = true;
      stopped(() => {});
      wakes.wakeAll();
      const finished = Promise.all(slots).then(() => true);
      // A timer, not Bun.sleep: once the stages finish it is cleared, so it cannot keep a stopped process alive.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
      const inTime = await Promise.race([finished, timedOut]);
      clearTimeout(timer);
      if (!inTime) logWarn("JOB", "shutdown grace over; running stages stay queued", { graceMs });
    },
  };
}

/** Runs a claimed job's stage and records how it moved on (`stages` lets tests run the loop's logic with their own). */
export async function runJob(deps: PipelineDeps, job: ClaimedJob, stages: Stages = STAGES): Promise<void> {
  const { jobs, stageStore, config } = deps;
  const started = performance.now();
  const { subject } = job;
  const saveId = subject.kind === "save" ? subject.saveId : undefined;
  const player = saveId === undefined ? undefined : (job.player ?? (await stageStore.playerOf(saveId)));
  const report = subject.kind === "report" ? subject.reportId : undefined;
  const fields = { job: job.id, save: saveId, report, player, stage: job.stage, attempt: job.attempts };

  const heartbeat = setInterval(() => {
    // A busy database: the next beat tries again, and the lease outlasts a few missed beats.
    jobs.renew(holderOf(job), Date.now(), config.pipeline.leaseMs).catch(() => {});
  }, Math.max(500, config.pipeline.leaseMs / 3));

  // The service died while this job ran before: its tasks run in a process of their own (task-process.ts).
  const isolated: PipelineDeps = { ...deps, workers: { run: (task, request) => runInTaskProcess(task, request, config.pipeline.taskTimeoutMs) } };
  let result: RunResult;
  try {
    result = await runStage(stages, job.isolated ? isolated : deps, job, { now: Date.now() });
  } catch (error) {
    if (error instanceof TaskProcessDied) result = { kind: "task_process_died", how: error.how };
    else if (unavailableStore(error) !== null) result = { kind: "store_away", error: redactError(error, deps) };
    else result = error instanceof TaskTimeoutError ? { kind: "timeout", timeout: error } : { kind: "error", error: redactError(error, deps) };
  }
  clearInterval(heartbeat);

  const ms = Math.round(performance.now() - started);
  metrics.stageFinished(job.stage, ms);
  const now = Date.now();
  try {
    // A push's record must not be undone (it would be sent again), nor a move whose old folder afterCommit
    // removes; any other stage just runs again.
    const durable = job.stage === "notify" || (result.kind === "advance" && result.durable === true);
    const { change, outcome, note } = changeFor(deps, job, result, now);
    const writes = result.kind === "advance" || result.kind === "fail" ? result.writes : undefined;
    const recorded = await stageStore.record(job, writes, change, now, durable);
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

type RunResult = StageResult | { kind: "error"; error: string } | { kind: "store_away"; error: string } | { kind: "timeout"; timeout: TaskTimeoutError } | { kind: "task_process_died"; how: string };

const REDRAWN = { outcome: "next=generate", note: "the save took a real player id while the stage ran: drawing again" };

/**
 * A store was away or too slow: the stage runs again in a few seconds without spending a retry, however long the
 * store stays away (its objects are rewritten into the same claimed folder), and soon after it is back.
 */
const STORE_WAIT_MS = 5000;
function storeAwayChange(job: ClaimedJob, error: string, now: number): Transition {
  return { state: "pending_retry", runAt: now + Math.round(STORE_WAIT_MS * (0.8 + Math.random() * 0.4)), attempts: Math.max(0, job.attempts - 1), lastError: error };
}

/** The job's change for the stage's result, and how the log line names it. */
function changeFor(deps: PipelineDeps, job: ClaimedJob, result: RunResult, now: number): { change: Transition; outcome: string; note?: string } {
  switch (result.kind) {
    case "advance":
      return { change: advanceChange(result.next, now), outcome: result.next === "done" ? "done" : `next=${result.next}`, note: result.note };
    case "later":
      return { change: { state: "pending_retry", runAt: result.runAt, attempts: 0, lastError: null }, outcome: "later", note: result.note };
    case "fail":
      return { change: { state: "failed", lastError: result.reason }, outcome: "failed", note: result.reason };
    case "wait_for_key":
      return { change: { state: "waiting_for_key", lastError: "no AES key configured" }, outcome: "waiting_for_key", note: "set AES_KEY and AES_IV, then restart" };
    case "error": {
      const change = retryChange(job, result.error, deps.config.pipeline.backoffMs, now);
      return { change, outcome: change.state === "failed" ? "failed" : "retry", note: result.error };
    }
    case "store_away":
      return { change: storeAwayChange(job, result.error, now), outcome: "waiting", note: `${result.error}; tried again soon, no retry spent` };
    case "task_process_died": {
      const change = taskProcessDiedChange(job, result.how, now);
      const parked = change.state === "failed";
      return { change, outcome: parked ? "failed" : "retry", note: `its task's own process died (${result.how})${parked ? "; parked" : ""}` };
    }
    case "timeout": {
      const change = afterTimeout(job.lastError, result.timeout, now);
      return { change, outcome: change.state === "failed" ? "failed" : "retry", note: change.lastError ?? undefined };
    }
  }
}
