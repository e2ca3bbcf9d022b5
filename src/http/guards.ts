/**
 * Guards in front of the upload and report routes, checked before a body is read: the disk floor (507) and
 * the decode budget, a byte budget shared by every in-flight request (503 once a request waited too long).
 */
import type { MiddlewareHandler } from "hono";
import { logWarn, type LogPrefix } from "../log.ts";

interface Waiter {
  bytes: number;
  grant: () => void;
}

/** A FIFO byte budget: a request reserves its worst case and gives it back when its handler is done. */
export class ByteBudget {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Resolves to a release function, or null when no room came within `waitMs`. */
  async reserve(wanted: number, waitMs: number): Promise<(() => void) | null> {
    // A request larger than the whole budget runs alone rather than never.
    const bytes = Math.min(Math.max(0, wanted), this.capacity);
    if (this.queue.length === 0 && this.used + bytes <= this.capacity) {
      this.used += bytes;
      return this.releaser(bytes);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        bytes,
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser(bytes));
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        // The head may have been the one blocking smaller requests behind it.
        this.drain();
        resolve(null);
      }, waitMs);
      this.queue.push(waiter);
    });
  }

  private releaser(bytes: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      this.drain();
    };
  }

  private drain(): void {
    while (this.queue.length > 0 && this.used + this.queue[0]!.bytes <= this.capacity) {
      const next = this.queue.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }
}

/** Holds `bytesFor(request)` of the budget while the route runs (released on success, error or abort). */
export function decodeBudget(
  budget: ByteBudget,
  waitMs: number,
  prefix: LogPrefix,
  bytesFor: (headers: Headers) => number,
): MiddlewareHandler {
  return async (c, next) => {
    const bytes = bytesFor(c.req.raw.headers);
    const release = await budget.reserve(bytes, waitMs);
    if (release === null) {
      logWarn(prefix, "rejected: decode budget full", { status: 503, bytes, inUse: budget.inUse, capacity: budget.capacity });
      c.header("Retry-After", String(Math.max(1, Math.ceil(waitMs / 1000))));
      return c.text("server is busy with other uploads; try again shortly", 503);
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}

/** Refuses new bodies while DATA_DIR is below its free-space floor; accepted data is untouched. */
export function diskFloor(isFull: () => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (isFull()) return c.text("server storage is full; try again later", 507);
    await next();
  };
}

/** An upload reserves what it declares (at most the chunk cap), or the chunk cap when it declares nothing. */
export function declaredOrCap(cap: number): (headers: Headers) => number {
  return (headers) => {
    const declared = Number(headers.get("content-length") ?? Number.NaN);
    return Number.isFinite(declared) && declared >= 0 ? Math.min(declared, cap) : cap;
  };
}
