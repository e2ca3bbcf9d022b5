/**
 * The delivery store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. A delivery
 * sent once and never again, retries from their retry time, attempts fenced by the job's lease.
 */
import { beforeEach, expect, test } from "bun:test";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import { dueAt } from "../../src/store/model/deliveries.ts";
import { holderOf } from "../../src/store/model/jobs.ts";
import { claimDeliveryAttempt } from "../../src/db/deliveries/rows.ts";
import type { Step } from "../../src/db/dialect/statements.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { CONFIGURED, deliveryStoreFixture, LEASE, T0, WEBHOOK } from "../helpers/delivery-store-contract.ts";

describeEachStore("delivery store", (s) => {
  let store: DeliveryStore;
  beforeEach(() => void (store = s.stores.deliveries));
  const { f, decide, candidate, heldDelivery } = deliveryStoreFixture(s);

  test("sent once: never due again, never claimed again, a late failure or a second decision changes nothing", async () => {
    const { saveId, job, holder, id } = await heldDelivery();
    expect((dueAt(await store.ofSave(saveId), T0)).map((row) => row.id)).toEqual([id]);
    expect(await store.claimAttempt(holder, { id, seenAttempts: 0 }, T0 + 10, LEASE)).toBe("claimed");
    expect((await f.job(job.id)).leaseExpiresAt).toBe(T0 + 10 + LEASE);
    expect(await store.claimAttempt(holder, { id, seenAttempts: 0 }, T0 + 11, LEASE)).toBe("taken");
    await store.markSent(id, T0 + 20);
    expect(dueAt(await store.ofSave(saveId), T0 + 60_000)).toEqual([]);
    expect(await store.claimAttempt(holder, { id, seenAttempts: 1 }, T0 + 30, LEASE)).toBe("taken");
    await store.markAttemptFailed({ deliveryId: id, attempt: 1 }, "late answer", T0 + 40);
    expect(await decide(candidate(saveId), WEBHOOK, CONFIGURED, T0 + 50)).toEqual({ push: true });
    expect(await f.rows(saveId)).toMatchObject([{ id, state: "sent", attempts: 1, sentAt: T0 + 20, lastError: null }]);
    expect(await store.tally(saveId)).toEqual({ sent: 1, failed: 0, skipped: 0, pending: 0, nextAttemptAt: null });
  });

  test("a failed attempt is due again at its retry time; past the last retry it fails; a superseded attempt's failure is ignored", async () => {
    const { saveId, holder, id } = await heldDelivery();
    expect(await store.claimAttempt(holder, { id, seenAttempts: 0 }, T0, LEASE)).toBe("claimed");
    await store.markAttemptFailed({ deliveryId: id, attempt: 1 }, "busy", T0 + 5_000);
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 1, lastError: "busy", nextAttemptAt: T0 + 5_000 }]);
    expect(dueAt(await store.ofSave(saveId), T0 + 4_999)).toEqual([]);
    expect(await store.tally(saveId)).toEqual({ sent: 0, failed: 0, skipped: 0, pending: 1, nextAttemptAt: T0 + 5_000 });
    expect((dueAt(await store.ofSave(saveId), T0 + 5_000)).map((row) => row.id)).toEqual([id]);

    expect(await store.claimAttempt(holder, { id, seenAttempts: 1 }, T0 + 5_000, LEASE)).toBe("claimed");
    await store.markAttemptFailed({ deliveryId: id, attempt: 1 }, "late answer to attempt 1", T0 + 6_000);
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 2, lastError: "busy", nextAttemptAt: T0 + 5_000 }]);
    await store.markAttemptFailed({ deliveryId: id, attempt: 2 }, "gone", null);
    expect(await f.rows(saveId)).toMatchObject([{ state: "failed", attempts: 2, lastError: "gone" }]);
    expect(await store.tally(saveId)).toEqual({ sent: 0, failed: 1, skipped: 0, pending: 0, nextAttemptAt: null });
    expect(dueAt(await store.ofSave(saveId), T0 + 60_000)).toEqual([]);
  });

  test("a stale holder's attempt is recorded nowhere: not on an expired lease, not after a takeover; its parts say stop", async () => {
    const { saveId, job, holder: stale, id } = await heldDelivery();
    expect(await store.claimAttempt(stale, { id, seenAttempts: 0 }, T0 + LEASE, LEASE)).toBe("lease_lost");
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 0 }]);
    expect((await f.job(job.id)).leaseExpiresAt).toBe(T0 + LEASE);

    const fresh = holderOf((await s.stores.jobs.claim(T0 + LEASE + 1, LEASE, false))!);
    expect(fresh.leaseId).not.toBe(stale.leaseId);
    // Even by a clock at which its own lease would still run: the lease id is another's.
    expect(await store.claimAttempt(stale, { id, seenAttempts: 0 }, T0 + 1, LEASE)).toBe("lease_lost");
    expect(await store.recordPartsSent(stale, id, 1, T0 + 1, LEASE)).toBe(false);
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 0 }]);
    expect((await f.job(job.id)).leaseExpiresAt).toBe(T0 + 2 * LEASE + 1);

    expect(await store.claimAttempt(fresh, { id, seenAttempts: 0 }, T0 + LEASE + 2, LEASE)).toBe("claimed");
    expect(await store.recordPartsSent(fresh, id, 2, T0 + LEASE + 3, LEASE)).toBe(true);
    expect(await store.recordPartsSent(fresh, id, 1, T0 + LEASE + 4, LEASE)).toBe(true);
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 1, partsSent: 2 }]);
    expect((await f.job(job.id)).leaseExpiresAt).toBe(T0 + 2 * LEASE + 4);
  });

  test("the attempt's claim checks the lease in its own statement: a runner stalled past its lease after renewing it sends nothing", async () => {
    const { saveId, holder: stale, id } = await heldDelivery();
    // The claim's flow driven a statement at a time, so that another runner can take the job over in between.
    const flow = claimDeliveryAttempt(stale, { id, seenAttempts: 0 }, T0 + 1, LEASE);
    const execute = async (step: Step) => {
      if (!("query" in step)) throw new Error("a statement was expected");
      return s.sql.rows(s.config.database.kind === "postgres" ? step.query.sql : step.query.sqlite, step.params as never[]);
    };
    let next = flow.next();
    next = flow.next(await execute(next.value as Step)); // the lease renewed, to T0 + 1 + LEASE
    const fresh = await s.stores.jobs.claim(T0 + LEASE + 2, LEASE, false); // the stale runner stalls past it: taken over
    expect(fresh).not.toBeNull();
    while (!next.done) next = flow.next(await execute(next.value));
    expect(next.value).toBe("lease_lost");
    expect(await f.rows(saveId)).toMatchObject([{ state: "pending", attempts: 0 }]);
  });
});
