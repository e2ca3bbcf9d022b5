/**
 * The data API's per-minute counts beside SQLite: this process's memory, since one process owns the file (a hub's
 * processes share theirs in PostgreSQL, ./pg-rate-windows.ts, with the same windows).
 */
import { WINDOW_MS, type RateWindow, type RateWindows } from "../../store/ports/rate-windows.ts";

/** Keys held at once: the oldest goes first. */
const MAX_KEYS = 10_000;

export function memoryRateWindows(): RateWindows {
  const windows = new Map<string, RateWindow>();
  return {
    count: (key, now) => {
      let window = windows.get(key);
      if (window === undefined || now - window.start >= WINDOW_MS) {
        windows.delete(key);
        if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value!);
        windows.set(key, (window = { start: now, count: 0 }));
      }
      window.count += 1;
      return window;
    },
  };
}
