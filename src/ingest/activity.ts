/**
 * Uploads and reports in flight, and when the last one ended. The pipeline starts its next stage once they
 * have been quiet for a moment: a capture tool sends once and waits for its answer, while a map drawn a few
 * ms later costs nobody anything. Under a stream that never pauses, a stage waits `maxWaitMs` at most.
 */
export class IngestActivity {
  private inFlight = 0;
  private lastEndedAt = Number.NEGATIVE_INFINITY;

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

  /** Resolves once no upload or report has been in flight for `quietMs`, or after `maxWaitMs`. */
  async quiet(): Promise<void> {
    const deadline = this.now() + this.maxWaitMs;
    for (;;) {
      const at = this.now();
      const wait = Math.min(this.quietIn(at), deadline - at);
      if (wait <= 0) return;
      await Bun.sleep(wait);
    }
  }
}
