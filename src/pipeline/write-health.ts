/**
 * Whether this process's pipeline can write (issue 49): a stage that could not be recorded, a claim that failed,
 * a stage that ran out of space (a full disk: SQLite's "database or disk is full", ENOSPC on the archive,
 * PostgreSQL's disk_full). /healthz and the status page say so with the reason (503) until a stage is recorded
 * again; the log says it once when it starts and once when it ends, never per loop.
 */
import { logInfo, logWarn } from "../log.ts";

export class WriteHealth {
  private problem: string | null = null;
  /** The problem came from the loop's claim, not from a stage: the next claim that goes through ends it. */
  private fromClaim = false;

  /** A write failed: the first of a run is logged. */
  failed(reason: string, where: "claim" | "stage" = "stage"): void {
    if (this.problem === null) logWarn("JOB", "the pipeline cannot write; /healthz answers 503 until it can (logged once)", { reason });
    // A stage's problem stays until a stage is recorded, even when the loop then fails too.
    this.fromClaim = (this.problem === null || this.fromClaim) && where === "claim";
    this.problem = reason;
  }

  /** A stage was recorded: writes go through again. */
  recorded(): void {
    if (this.problem === null) return;
    logInfo("JOB", "the pipeline writes again", { after: this.problem });
    this.problem = null;
  }

  /** A claim went through: a problem the claims had is over (a stage's, such as a full archive, is not). */
  claimed(): void {
    if (this.fromClaim) this.recorded();
  }

  /** Why the pipeline cannot write, or null when it can. */
  current(): string | null {
    return this.problem;
  }
}
