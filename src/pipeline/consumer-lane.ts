/**
 * Consumer webhooks' own lane (issue 49): once a save's chat pushes are sent, what is left of its notify stage (its
 * data webhooks' deliveries) runs here, under the job's lease as before, while the pipeline slot goes back to
 * claiming. At most `capacity` jobs run here at once per process; a job that finds no room comes back a moment later
 * (runner.ts), so a receiver that hangs costs its own lane's places and never a slot the next save's push needs.
 */
export class ConsumerLane {
  private readonly running = new Set<Promise<void>>();

  constructor(readonly capacity: number) {}

  /** Starts `work` (which handles its own failures) when the lane has room (true); false when full: nothing started. */
  tryRun(work: () => Promise<void>): boolean {
    if (this.running.size >= this.capacity) return false;
    const done: Promise<void> = work().finally(() => this.running.delete(done));
    this.running.add(done);
    return true;
  }

  /** Resolves once what runs now has finished. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}
