/**
 * Per-peer throttle of owner-token guesses (the login form, Basic and Bearer credentials): the first
 * FREE_FAILURES wrong tokens cost nothing, then each one doubles the wait before the next try (up to MAX_DELAY_MS).
 * The counts live in the store (LoginFailureRecords), so every process of a hub throttles the same guesser.
 */
import type { LoginFailures } from "../../store/model/owner.ts";
import type { LoginFailureRecords } from "../../store/ports/owner.ts";

export const FREE_FAILURES = 5;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60 * 1000;
/** A peer with no failure for this long starts afresh. */
const FORGET_MS = 60 * 60 * 1000;

export interface LoginAttempts {
  /** How long `peer` must still wait before its token is checked again; 0 when it may try now. */
  waitMs(peer: string, now: number): Promise<number>;
  failed(peer: string, now: number): Promise<void>;
  succeeded(peer: string): Promise<void>;
}

export function delayAfter(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - FREE_FAILURES));
}

/** The throttle over the store: every process of a hub counts the same peer's guesses. */
export class StoredLoginAttempts implements LoginAttempts {
  constructor(private readonly records: LoginFailureRecords) {}

  async waitMs(peer: string, now: number): Promise<number> {
    const record = current(await this.records.of(peer), now);
    return record === undefined ? 0 : Math.max(0, record.lastFailure + delayAfter(record.failures) - now);
  }

  async failed(peer: string, now: number): Promise<void> {
    await this.records.record(peer, now, now - FORGET_MS - MAX_DELAY_MS, (record) => (current(record, now)?.failures ?? 0) + 1);
  }

  async succeeded(peer: string): Promise<void> {
    await this.records.clear(peer);
  }
}

/** The peer's failures, unless it has not failed for FORGET_MS past its last wait. */
function current(record: LoginFailures | undefined, now: number): LoginFailures | undefined {
  return record !== undefined && now - record.lastFailure <= FORGET_MS + delayAfter(record.failures) ? record : undefined;
}
