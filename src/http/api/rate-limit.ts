/**
 * Requests per minute per key (an API token's name, a peer address): a fixed window from a key's first request
 * once its last window ended. The counts live in RateWindows (src/db/owner/: this process's memory beside SQLite,
 * one process per file; the database on a hub), so that N processes behind a balancer allow the rate once, not N times.
 */
import { WINDOW_MS, type RateWindows } from "../../store/ports/rate-windows.ts";

export class RateLimit {
  /** Keys refused in this process, until their window ends: a flood's further requests never reach the store. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly windows: RateWindows,
    /** Keeps this limit's keys apart from another's in one store (a token named like an address). */
    private readonly scope: string,
  ) {}

  /** Seconds to wait before `key` may ask again, or 0 when this request is allowed. */
  async take(key: string, now = Date.now()): Promise<number> {
    const scoped = `${this.scope}:${key}`;
    const until = this.refusedUntil.get(scoped);
    if (until !== undefined && now < until) return waitFor(until, now);
    this.refusedUntil.delete(scoped);
    const window = await this.windows.count(scoped, now);
    if (window.count <= this.perMinute) return 0;
    if (this.refusedUntil.size >= MAX_KEYS) this.refusedUntil.delete(this.refusedUntil.keys().next().value!);
    this.refusedUntil.set(scoped, window.start + WINDOW_MS);
    return waitFor(window.start + WINDOW_MS, now);
  }
}

const waitFor = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/** Refused keys held at once: the oldest goes first. */
const MAX_KEYS = 10_000;
