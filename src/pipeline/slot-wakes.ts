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
 *   sleeping slot. A slot woken by its poll timer that finds a job wakes one more: a backlog may be waiting.
 */
export type WakeReason = "job" | "news" | "timer" | "stop";

export class SlotWakes {
  private readonly sleepers: ((reason: WakeReason) => void)[] = [];
  private promised = 0;
  private looking = 0;
  private missed = false;

  wake = (): void => {
    this.promised = Math.max(0, this.promised - 1);
    this.wakeOne("job");
  };

  hear = (): void => this.wakeOne("news");

  keepsNextJob = (): boolean => {
    if (this.sleepers.length <= this.promised) return false;
    this.promised++;
    return true;
  };

  wakeAll(): void {
    for (const sleeper of this.sleepers.splice(0)) sleeper("stop");
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

  /** Sleeps up to `ms`; resolves with why the slot woke. */
  sleep(ms: number): Promise<WakeReason> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.sleepers.indexOf(done);
        if (at >= 0) this.sleepers.splice(at, 1);
        // A poll interval went by: any promise still open was not kept (its commit failed or found a duplicate).
        this.promised = 0;
        resolve("timer");
      }, ms);
      const done = (reason: WakeReason) => {
        clearTimeout(timer);
        resolve(reason);
      };
      this.sleepers.push(done);
    });
  }

  private wakeOne(reason: "job" | "news"): void {
    const sleeper = this.sleepers.shift();
    if (sleeper) sleeper(reason);
    else if (this.looking > 0) this.missed = true;
  }
}
