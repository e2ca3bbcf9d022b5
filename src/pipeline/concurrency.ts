/**
 * How much a process does at once (issue 46): drawing and waiting kept apart. A save's generate draws on a core
 * (decrypt, render), then waits on its stores: the bucket's PUTs, PostgreSQL's round trips, the notify stage's. A
 * slot per core is right for drawing and wrong for waiting: a slot held across a 30 ms PUT is a slot not drawing.
 * So the render workers (one save drawn at a time each) and the job slots (saves in flight, most of them waiting)
 * are two numbers, and a worker takes the next save once its last one is drawn, while that one's writes go on
 * (worker-pool.ts). The one place that decides both; the service, the pipeline and a hub's pool read it here.
 */
import { availableParallelism } from "node:os";
import type { Config } from "../config/index.ts";

type Settings = Pick<Config, "pipeline" | "database">;

/** Saves drawn at once: PIPELINE_CONCURRENCY, at most cores − 1 (one core stays the HTTP thread's). */
export function drawingAtOnce(config: Settings, cores = availableParallelism()): number {
  return Math.max(1, Math.min(config.pipeline.concurrency, cores - 1));
}

/**
 * A hub's stores are on other machines: a save spends most of its time in a stage waiting on them (at 1 ms to
 * PostgreSQL and 30 ms to the bucket, ~3 saves wait for each one drawing). Enough slots that the workers never
 * idle while saves wait, few enough that a burst does not claim what another process could draw sooner.
 */
const HUB_IN_FLIGHT = 8;

/**
 * Jobs a process keeps in flight (its slots): PIPELINE_IN_FLIGHT, else on SQLite PIPELINE_CONCURRENCY (its stores
 * are local: waiting is an fsync), on a hub at least HUB_IN_FLIGHT. Never fewer than the saves drawn at once.
 */
export function jobsInFlight(config: Settings, cores = availableParallelism()): number {
  const chosen = config.pipeline.inFlight ?? (config.database.kind === "postgres" ? Math.max(HUB_IN_FLIGHT, config.pipeline.concurrency) : config.pipeline.concurrency);
  return Math.max(chosen, drawingAtOnce(config, cores));
}

/** A hub process's PostgreSQL connections: one per slot (a stage's statements and records), 8 for requests and LISTEN. */
export function hubConnections(config: Settings): number {
  return jobsInFlight(config) + 8;
}

/**
 * Stages that draw (generate, evaluate) at once: per render worker, one drawing, one readying (its reads and folder
 * claim) and one writing its archive. A slot takes a ticket before it claims and gives it back at once when the job
 * does not draw, so the other slots wait on the stores (notify, records) while the claimed saves never queue long
 * for a worker (a queued job holds its lease, and a burst's jobs are left to the processes with room to draw).
 */
export function drawingStages(config: Settings, cores = availableParallelism()): number {
  return Math.min(3 * drawingAtOnce(config, cores), jobsInFlight(config, cores));
}

/** The tickets of drawingStages: `take` resolves with a release (safe to call twice) once one is free. */
export class DrawTickets {
  private taken = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly count: number) {}

  take(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.taken++;
        let held = true;
        resolve(() => {
          if (!held) return;
          held = false;
          this.taken--;
          this.waiting.shift()?.();
        });
      };
      if (this.taken < this.count) grant();
      else this.waiting.push(grant);
    });
  }
}
