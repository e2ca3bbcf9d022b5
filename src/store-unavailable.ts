/**
 * A store that is away or too slow (a dropped or refused connection, a restart, a lock, a deadline passed) is the
 * service's to wait out, not a fault of the request: the HTTP layer answers 503 with Retry-After, the pipeline tries
 * again. This is where such failures are told apart from the rest, and where a store's calls get their deadline.
 */

export type StoreName = "database" | "bucket";

/** Retry-After of a 503 for a store away: a restart or failover is usually over within seconds. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** A store did not answer in time, or answered that it cannot serve now. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly store: StoreName,
    reason: string,
    options?: { cause: unknown },
  ) {
    super(`${store} unavailable: ${reason}`, options);
    this.name = "StoreUnavailableError";
  }
}

/** postgres.js's and the socket's codes for a connection that is gone or cannot be made. */
const CONNECTION_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT", "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/**
 * SQLSTATEs that say "not now": connection exceptions (08), shutdown or start-up (57P01-57P03), query cancelled
 * (57014), too many connections or no resources (53), serialization failure and deadlock (40001, 40P01), a lock not
 * available (55P03); SQLite's busy and locked.
 */
const TRANSIENT_STATE = /^(08...|57P0[123]|57014|53...|40001|40P01|55P03)$/;
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
/** Bun's S3 client's codes for a connection that failed, and S3's answers that mean "try again". */
const BUCKET_AWAY = /^(Connection\w*|E[A-Z]+|Timeout|RequestTimeout|InternalError|ServiceUnavailable|SlowDown|ServerBusy)$/;

/** The store a failure says is away (walking an error's causes), or null for any other error. */
export function unavailableStore(error: unknown): StoreName | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof StoreUnavailableError) return cause.store;
    // A bucket that cannot be reached or says "not now"; a refusal (a wrong secret, no such bucket) is no outage.
    if (cause.name === "S3Error" && BUCKET_AWAY.test(String((cause as { code?: unknown }).code))) return "bucket";
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (CONNECTION_CODES.has(code) || SQLITE_BUSY.test(code)) return "database";
    if (cause.name === "PostgresError" && TRANSIENT_STATE.test(code)) return "database";
  }
  return null;
}

/**
 * `store` with a deadline on every async method (nested objects too): past `ms` the call rejects with
 * StoreUnavailableError. The work itself goes on and settles unseen: a write that commits late was answered 503,
 * and what the client sends again is recognised (uploads, reports and their resends are idempotent).
 */
export function withDeadline<T extends object>(target: T, ms: number, store: StoreName): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value === "function") {
        return (...args: unknown[]) => {
          const result = value.apply(object, args);
          return result instanceof Promise ? deadline(result, ms, store) : result;
        };
      }
      return value !== null && typeof value === "object" && !ArrayBuffer.isView(value) ? withDeadline(value, ms, store) : value;
    },
  });
}

function deadline<T>(work: Promise<T>, ms: number, store: StoreName): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StoreUnavailableError(store, `no answer within ${ms} ms`)), ms)));
  // A connection failure of this store says so by name (a bucket's refused connection is the bucket's).
  const named = work.catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) throw error;
    if (unavailableStore(error) === null) throw error;
    throw new StoreUnavailableError(store, error instanceof Error ? briefly(error) : "away", { cause: error });
  });
  named.catch(() => {}); // settles unseen once the deadline has answered
  return Promise.race([named, late]).finally(() => clearTimeout(timer));
}

/** An error's code and first line, for a log: never a query, its parameters or a URL's query string. */
export function briefly(error: Error): string {
  let root = error;
  while (root.cause instanceof Error && !(root instanceof StoreUnavailableError)) root = root.cause;
  if (root instanceof StoreUnavailableError) return root.message;
  const code = (root as { code?: unknown }).code;
  const line = (root.message.split("\n")[0] ?? "").replace(/\?\S*/g, "").slice(0, 120);
  return typeof code === "string" && !line.includes(code) ? `${code} ${line}` : line;
}

/**
 * A process-wide guard: the PostgreSQL client settles some queries of a connection that dropped with nobody left to
 * hear (a transaction's rollback after its connection closed), and an unheard rejection ends a Bun process. A store
 * that is away is logged and survived; anything else still ends the process, as before.
 */
export function surviveStoreRejections(log: (message: string, fields: Record<string, string>) => void): void {
  process.on("unhandledRejection", (reason) => {
    const store = unavailableStore(reason);
    if (store === null) throw reason;
    log(`${store} failure nobody awaited (its connection dropped); carrying on`, { error: reason instanceof Error ? briefly(reason) : String(reason).slice(0, 120) });
  });
}

const OUT_OF_SPACE = /ENOSPC|no space left|disk is full|SQLITE_FULL|could not extend file|\b53100\b/i;

/** An error text that says the disk (or the database's) is full: SQLite's SQLITE_FULL, ENOSPC, PostgreSQL's disk_full. */
export const outOfSpace = (reason: string) => OUT_OF_SPACE.test(reason);
