/**
 * Group commit: writes submitted in the same turn of the event loop share one transaction, so one fsync
 * (synchronous=FULL) covers them all. Each write runs in its own savepoint: one that throws is rolled back
 * alone and rejects alone (plain SQL: drizzle's nested transaction builds its statements anew every time). A
 * promise settles only after COMMIT, so a 200 still means "durable".
 */
import type { Db, Tx } from "./open.ts";

interface Pending<T> {
  write: (tx: Tx) => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitter {
  private queue: Pending<unknown>[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(write: (tx: Tx) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve, reject } as Pending<unknown>);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    const client = this.db.$client;
    try {
      this.db.transaction(
        (tx) => {
          for (const item of batch) {
            client.run("SAVEPOINT group_write");
            let value: unknown;
            try {
              value = item.write(tx);
            } catch (error) {
              // SQLite ended the whole transaction (RAISE(ROLLBACK), an I/O error): the batch fails with this error.
              if (!client.inTransaction) throw error;
              client.run("ROLLBACK TO group_write");
              client.run("RELEASE group_write");
              outcomes.push({ ok: false, error });
              continue;
            }
            client.run("RELEASE group_write");
            outcomes.push({ ok: true, value });
          }
        },
        { behavior: "immediate" },
      );
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}
