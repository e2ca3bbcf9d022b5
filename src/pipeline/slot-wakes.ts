/**
 * How the pipeline's idle slots are woken: one slot for one new job, not every slot of every process. Woken all at
 * once, each slot claimed (one round trip) and, finding nothing, asked for the next due job (another) before it
 * slept again: per save two slots of one process spent two fruitless round trips, and every process of a hub heard
 * every other's new work too, so the waste grew with the processes.
 *
 * - `wake()`: this process committed one new job (an upload, a report) and answers for it: one sleeping slot.
 * - `keepsNextJob()`: asked before such a commit; true (and that slot promised) when a sleeping slot is free for it,
 *   so the commit need not wake other processes. A promise never kept (a duplicate upload, a failed statement) is
 *   forgotten at the next poll, until when the process only wakes others more than it needs.
 * - `hear()`: another process committed new work (an upload it had no free slot for, an owner's retry): one
 *   sleeping slot. A slot woken by its poll timer or by news that finds a job wakes one more: a backlog may be
 *   waiting (an owner's retry is one NOTIFY for many jobs). `wakeFor(n)`: this process requeued n jobs at once.
 * - One sleeping slot polls, not each: every poll is a claim and a read of the next due time, per process.
 */
export type WakeReason = "job" | "news" | "timer" | "stop";

interface Sleeper {
  /** Its poll interval, and when it polls by performance.now() while it keeps the poll. */
  ms: number;
  deadline: number;
  resolve: (reason: WakeReason) => void;
  /** Set while it keeps the process's poll. */
  timer?: ReturnType<typeof setTimeout>;
}

export class SlotWakes {
  private readonly sleepers: Sleeper[] = [];
  private promised = 0;
  private looking = 0;
  private missed = false;

  wake = (): void => {
    this.promised = Math.max(0, this.promised - 1);
    this.wakeOne("job");
  };

  hear = (): void => this.wakeOne("news");

  /** `jobs` requeued at once (the owner's retry): a sleeping slot for each, as many as sleep. */
  wakeFor = (jobs: number): void => {
    for (let i = 0; i < jobs && this.sleepers.length > 0; i++) this.wakeOne("news");
  };

  keepsNextJob = (): boolean => {
    if (this.sleepers.length <= this.promised) return false;
    this.promised++;
    return true;
  };

  wakeAll(): void {
    for (const sleeper of this.sleepers.splice(0)) {
      clearTimeout(sleeper.timer);
      sleeper.resolve("stop");
    }
  }

  /** A slot starts looking for a job (its claim, and when that finds none the next due time). */
  looks(): void {
    this.looking++;
  }

  /**
   * The slot stopped looking; true when it found nothing but a wake-up came meanwhile that no sleeping slot took:
   * it claims again rather than sleep past that job (it may have looked before the job committed).
   */
  doneLooking(found: boolean): boolean {
    this.looking--;
    if (found) return false;
    const missed = this.missed;
    this.missed = false;
    return missed;
  }

  /**
   * Sleeps until woken, or up to `ms` when this slot keeps the process's poll: one sleeping slot polls (the one
   * due first), not each, since a poll that finds a job wakes one more. When it leaves, another takes it on.
   */
  sleep(ms: number): Promise<WakeReason> {
    return new Promise((resolve) => {
      const sleeper: Sleeper = { ms, deadline: performance.now() + ms, resolve };
      this.sleepers.push(sleeper);
      const polling = this.sleepers.filter((other) => other.timer !== undefined);
      if (polling.every((other) => other.deadline > sleeper.deadline)) this.arm(sleeper);
    });
  }

  private arm(sleeper: Sleeper): void {
    sleeper.timer = setTimeout(() => {
      // A poll interval went by: any promise still open was not kept (its commit failed or found a duplicate).
      this.promised = 0;
      this.take(sleeper, "timer");
    }, Math.max(0, sleeper.deadline - performance.now()));
  }

  private take(sleeper: Sleeper, reason: WakeReason): void {
    clearTimeout(sleeper.timer);
    sleeper.timer = undefined;
    this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
    const next = this.sleepers[0];
    if (next !== undefined && this.sleepers.every((other) => other.timer === undefined)) {
      // A whole interval from now: the slot leaving polls now (its next sleep asks for the next due time anew).
      next.deadline = performance.now() + next.ms;
      this.arm(next);
    }
    sleeper.resolve(reason);
  }

  /** The newest sleeper: the poll stays with the slot that keeps it. */
  private wakeOne(reason: "job" | "news"): void {
    const sleeper = this.sleepers.at(-1);
    if (sleeper) this.take(sleeper, reason);
    else if (this.looking > 0) this.missed = true;
  }
}
