/**
 * Requests per minute per key (an API token's name, a peer address): a fixed one-minute window, in this
 * process's memory and bounded (the oldest keys go first). A hub's processes each count their own.
 */
const MAX_KEYS = 10_000;
const WINDOW_MS = 60_000;

export class RateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  /** Seconds to wait before `key` may ask again, or 0 when this request is allowed (and counted). */
  take(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(key, (window = { start: now, count: 0 }));
    }
    if (window.count >= this.perMinute) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    window.count += 1;
    return 0;
  }
}
