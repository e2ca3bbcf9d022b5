/**
 * The fence in front of every push request: a delivery attempt is claimed, and each answered part recorded, in
 * a transaction that also requires the job's lease to be ours, `running` and unexpired, and extends it. A
 * runner whose lease expired or was taken over sends nothing more.
 */
import { and, eq, exists, gt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/open.ts";
import { deliveries, jobs } from "../db/schema.ts";

/** Who may send: the job and the lease of the runner holding it. */
export interface LeaseHolder {
  jobId: number;
  leaseId: string;
}

const heldBy = (holder: LeaseHolder, now: number) =>
  and(eq(jobs.id, holder.jobId), eq(jobs.leaseId, holder.leaseId), eq(jobs.state, "running"), gt(jobs.leaseExpiresAt, now));

function extendLease(tx: Tx, holder: LeaseHolder, now: number, leaseMs: number): boolean {
  return tx.update(jobs).set({ leaseExpiresAt: now + leaseMs }).where(heldBy(holder, now)).returning({ id: jobs.id }).all().length === 1;
}

export type ClaimOutcome = "claimed" | "taken" | "lease_lost";

/**
 * Marks the next attempt of a pending delivery whose attempt count is still `seenAttempts`, only under the
 * lease. `claimed`: this runner may send it (a crash mid-send shows up as a spent attempt); `taken`: the row
 * moved on (another attempt or a result); `lease_lost`: this runner no longer holds the job.
 */
export function claimDeliveryAttempt(
  db: Db,
  holder: LeaseHolder,
  delivery: { id: number; seenAttempts: number },
  now: number,
  leaseMs: number,
): ClaimOutcome {
  return db.transaction(
    (tx) => {
      const claimed = tx
        .update(deliveries)
        .set({ attempts: delivery.seenAttempts + 1 })
        .where(
          and(
            eq(deliveries.id, delivery.id),
            eq(deliveries.state, "pending"),
            eq(deliveries.attempts, delivery.seenAttempts),
            exists(tx.select({ one: sql`1` }).from(jobs).where(heldBy(holder, now))),
          ),
        )
        .returning({ id: deliveries.id })
        .all();
      if (claimed.length === 1) {
        extendLease(tx, holder, now, leaseMs);
        return "claimed";
      }
      return tx.select({ id: jobs.id }).from(jobs).where(heldBy(holder, now)).get() ? "taken" : "lease_lost";
    },
    { behavior: "immediate" },
  );
}

/**
 * Records that the first `count` parts of a delivery were answered (always: they were sent), and says whether
 * the next part may go: only while the lease is still ours (extended here).
 */
export function recordPartsSent(db: Db, holder: LeaseHolder, deliveryId: number, count: number, now: number, leaseMs: number): boolean {
  return db.transaction(
    (tx) => {
      tx.update(deliveries).set({ partsSent: sql`max(${deliveries.partsSent}, ${count})` }).where(eq(deliveries.id, deliveryId)).run();
      return extendLease(tx, holder, now, leaseMs);
    },
    { behavior: "immediate" },
  );
}
