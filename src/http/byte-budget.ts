/**
 * A FIFO byte budget. Each request holds bytes through an account as they arrive and gives them all back when
 * it is done. Holders that all wait for more room would wait for each other until they time out: then the
 * oldest of them goes past the budget (by what it asks, at most one request's caps), finishes and frees its room.
 */
interface Waiter {
  bytes: number;
  account: BudgetAccount;
  grant: () => void;
}

export class ByteBudget {
  private used = 0;
  private readonly queue: Waiter[] = [];
  /** Accounts holding bytes now. */
  private readonly holders = new Set<BudgetAccount>();

  constructor(readonly capacity: number) {}

  get inUse(): number {
    return this.used;
  }

  open(): BudgetAccount {
    return new BudgetAccount(this);
  }

  /** @internal True once `bytes` are held for `account`; false when no room came within `waitMs`. */
  reserve(account: BudgetAccount, bytes: number, waitMs: number): Promise<boolean> {
    if (this.queue.length === 0 && this.used + bytes <= this.capacity) {
      this.take(account, bytes);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        bytes,
        account,
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        // The head may have been the one blocking smaller requests behind it.
        this.drain();
        resolve(false);
      }, waitMs);
      this.queue.push(waiter);
      this.drain();
    });
  }

  /** @internal Gives back `bytes` of what `account` holds (all of it by default). */
  release(account: BudgetAccount, bytes = account.held): void {
    const returned = Math.min(Math.max(0, bytes), account.held);
    this.used -= returned;
    account.held -= returned;
    if (account.held === 0) this.holders.delete(account);
    this.drain();
  }

  private take(account: BudgetAccount, bytes: number): void {
    this.used += bytes;
    account.held += bytes;
    if (bytes > 0) this.holders.add(account);
  }

  private grant(index: number): void {
    const [next] = this.queue.splice(index, 1);
    this.take(next!.account, next!.bytes);
    next!.grant();
  }

  private drain(): void {
    while (this.queue.length > 0 && this.used + this.queue[0]!.bytes <= this.capacity) this.grant(0);
    if (this.queue.length === 0 || this.holders.size === 0) return;
    const waiting = new Set(this.queue.map((waiter) => waiter.account));
    if ([...this.holders].every((holder) => waiting.has(holder))) this.grant(this.queue.findIndex((waiter) => this.holders.has(waiter.account)));
  }
}

/** One request's share of the budget. */
export class BudgetAccount {
  held = 0;

  constructor(readonly budget: ByteBudget) {}

  /** True once `bytes` more are held; false when no room came within `waitMs`. */
  reserve(bytes: number, waitMs: number): Promise<boolean> {
    return this.budget.reserve(this, Math.max(0, bytes), waitMs);
  }

  /** Gives back part of what this account holds (a reservation that turned out larger than needed). */
  giveBack(bytes: number): void {
    this.budget.release(this, bytes);
  }

  /** Gives back everything this account holds. */
  close(): void {
    this.budget.release(this);
  }
}
