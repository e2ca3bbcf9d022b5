/**
 * Uploads and reports in flight, and when the last one ended. The pipeline starts its next stage once they
 * have been quiet for a moment: a capture tool sends once and waits for its answer, while a map drawn a few
 * ms later costs nobody anything. A stage waits `maxWaitMs` at most, and once one has, the pipeline stops
 * waiting until uploads and reports pause: a stream that never pauses (a flood, a client dripping its body)
 * costs the queue that one wait, not one per stage.
 */
export class IngestActivity {
  private inFlight = 0;
  private lastEndedAt = Number.NEGATIVE_INFINITY;
  /** Set when a wait ran out: no more waiting until ingest is quiet again. */
  private open = false;

  constructor(
    /** Longer than a client's pause between back-to-back requests (well under a ms on loopback). */
    private readonly quietMs: number,
    private readonly maxWaitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastEndedAt = this.now();
  }

  /** How much longer until ingest counts as quiet (0: quiet now). */
  private quietIn(at: number): number {
    return this.inFlight > 0 ? this.quietMs : Math.max(0, this.quietMs - (at - this.lastEndedAt));
  }

  /**
   * Resolves once no upload or report has been in flight for `quietMs`, or after `maxWaitMs`; after a wait that
   * ran out, at once until such a quiet moment.
   */
  async quiet(): Promise<void> {
    const started = this.now();
    if (this.quietIn(started) === 0) {
      this.open = false;
      return;
    }
    if (this.open) return;
    const deadline = started + this.maxWaitMs;
    for (;;) {
      const at = this.now();
      if (this.quietIn(at) === 0 || this.open) return;
      if (at >= deadline) {
        this.open = true;
        return;
      }
      // Whole milliseconds: Bun.sleep returns at once for less than one, and the loop would spin.
      await Bun.sleep(Math.max(1, Math.ceil(Math.min(this.quietIn(at), deadline - at))));
    }
  }
}
