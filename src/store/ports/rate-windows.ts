/** The data API's request counts per key and window: this process's memory beside SQLite, PostgreSQL's on a hub. */
export const WINDOW_MS = 60_000;

export interface RateWindow {
  start: number;
  count: number;
}

export interface RateWindows {
  /** Counts one request of `key` at `now` in its window (a new one when the last began WINDOW_MS ago or more). */
  count(key: string, now: number): RateWindow | Promise<RateWindow>;
}
