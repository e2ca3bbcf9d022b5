/**
 * Per-peer throttle of owner-token guesses (the login form, Basic and Bearer credentials): the first
 * FREE_FAILURES wrong tokens cost nothing, then each one doubles the wait before the next try (up to MAX_DELAY_MS).
 * The state sits behind `LoginAttempts` so another store (the database, for several processes) can replace it.
 */
export const FREE_FAILURES = 5;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60 * 1000;
/** A peer with no failure for this long starts afresh. */
const FORGET_MS = 60 * 60 * 1000;
const MAX_PEERS = 4096;

export interface LoginAttempts {
  /** How long `peer` must still wait before its token is checked again; 0 when it may try now. */
  waitMs(peer: string, now: number): number;
  failed(peer: string, now: number): void;
  succeeded(peer: string): void;
}

export function delayAfter(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - FREE_FAILURES));
}

interface Record {
  failures: number;
  lastFailure: number;
}

/** One process's memory; bounded (the peer that failed longest ago is dropped first). */
export class MemoryLoginAttempts implements LoginAttempts {
  private readonly peers = new Map<string, Record>();

  waitMs(peer: string, now: number): number {
    const record = this.current(peer, now);
    return record === undefined ? 0 : Math.max(0, record.lastFailure + delayAfter(record.failures) - now);
  }

  failed(peer: string, now: number): void {
    const failures = (this.current(peer, now)?.failures ?? 0) + 1;
    this.peers.delete(peer);
    if (this.peers.size >= MAX_PEERS) this.peers.delete(this.peers.keys().next().value!);
    this.peers.set(peer, { failures, lastFailure: now });
  }

  succeeded(peer: string): void {
    this.peers.delete(peer);
  }

  private current(peer: string, now: number): Record | undefined {
    const record = this.peers.get(peer);
    if (record !== undefined && now - record.lastFailure > FORGET_MS + delayAfter(record.failures)) {
      this.peers.delete(peer);
      return undefined;
    }
    return record;
  }
}
