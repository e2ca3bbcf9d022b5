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
 * Jobs a process keeps in flight (its slots): PIPELINE_IN_FLIGHT, else PIPELINE_CONCURRENCY; never fewer than the
 * saves drawn at once. A hub whose stores are far raises it (docs/hub.md): more saves wait on the stores while the
 * workers draw, at the cost of claim order (a subscribed player's save claimed first may be drawn second) and a
 * PostgreSQL connection a slot. Not raised by default: on this project's 2-core machines, with the stores beside the
 * service, 8 slots drew no more saves a second than 2 (BENCHMARKS.md, issue 46).
 */
export function jobsInFlight(config: Settings, cores = availableParallelism()): number {
  return Math.max(config.pipeline.inFlight ?? config.pipeline.concurrency, drawingAtOnce(config, cores));
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
