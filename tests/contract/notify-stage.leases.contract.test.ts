/**
 * The notify stage on both stores (SQLite and a hub's PostgreSQL), in-process with a recording server for the
 * channels: the lease fence (a runner whose lease was taken over sends nothing; a takeover between two parts of a
 * delivery stops the old holder after the part answered) and a retry not yet due. The fence's own rules are in
 * delivery-store.attempts.contract.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { notifyStage } from "../../src/pipeline/stages/notify.ts";
import { holderOf, type ClaimedJob } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { saveJob } from "../helpers/pipeline-harness.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { LEASE_MS, notifyStageFixture, OK } from "../helpers/notify-stage-contract.ts";

let api: RecordingServer;
beforeAll(async () => void (api = await startRecordingServer({ defaultResponse: OK })));
afterAll(() => api.stop());

describeEachStore("notify stage", (s) => {
  const { claim, deliveryOf, deps, archivedSave } = notifyStageFixture(s, () => api);

  describe("under a lost lease", () => {
    test("the old holder sends nothing; the current holder sends once", async () => {
      const saveId = await archivedSave();
      const old = await claim(Date.now() - 10_000, 1_000);
      const current = await claim(Date.now());
      expect([current.id, current.leaseId === old.leaseId]).toEqual([old.id, false]);
      const stale = await notifyStage(deps("webhook"), old, { now: Date.now() });
      expect(api.requests).toHaveLength(0);
      expect(stale.kind).toBe("later");
      expect(await deliveryOf(saveId)).toMatchObject({ state: "pending", attempts: 0 });

      expect(await notifyStage(deps("webhook"), current, { now: Date.now() })).toMatchObject({ kind: "advance", next: "done" });
      expect(api.requestsTo("/hook")).toHaveLength(1);
      expect(await deliveryOf(saveId)).toMatchObject({ state: "sent", attempts: 1 });
    });

    test("a takeover mid-delivery: the old holder stops after the part in flight, the new one never sends it again", async () => {
      const saveId = await archivedSave();
      const old = await claim(Date.now());
      const takeover: { job?: ClaimedJob | null } = {};
      // While the first Bark push is in flight, the lease expires and another runner claims the job.
      api.respond("/bark/push", async () => {
        takeover.job = await s.stores.jobs.claim(Date.now() + 2 * LEASE_MS, LEASE_MS, false);
        return OK;
      });
      await notifyStage(deps("bark"), old, { now: Date.now() });
      expect(api.requestsTo("/bark/push")).toHaveLength(1);
      expect(await deliveryOf(saveId)).toMatchObject({ state: "pending", partsSent: 1, attempts: 1 });

      const current = saveJob(takeover.job ?? null);
      expect(current.leaseId).not.toBe(old.leaseId);
      expect(await notifyStage(deps("bark"), current, { now: Date.now() })).toMatchObject({ kind: "advance", next: "done" });
      // Bark's one notification a refresh, answered to the old holder: sent exactly once.
      expect(api.requestsTo("/bark/push")).toHaveLength(1);
      expect(await deliveryOf(saveId)).toMatchObject({ state: "sent", partsSent: 1, attempts: 2 });
    });

    test("a failure answered to the old holder does not overwrite the attempt the new holder claimed", async () => {
      const saveId = await archivedSave();
      const old = await claim(Date.now());
      api.respond("/hook", async () => {
        const current = (await s.stores.jobs.claim(Date.now() + 2 * LEASE_MS, LEASE_MS, false))!;
        const row = await deliveryOf(saveId);
        expect(await s.stores.deliveries.claimAttempt(holderOf(current), { id: row.id, seenAttempts: row.attempts }, Date.now(), LEASE_MS)).toBe("claimed");
        return { status: 500, body: "busy" };
      });
      await notifyStage(deps("webhook"), old, { now: Date.now() });
      expect(await deliveryOf(saveId)).toMatchObject({ state: "pending", attempts: 2, lastError: null });
    });
  });

  test("a retry not due yet: the stage sends nothing and comes back at its time", async () => {
    const saveId = await archivedSave();
    const job = await claim(Date.now());
    api.respond("/hook", { status: 500, body: "busy" });
    expect(await notifyStage(deps("webhook"), job, { now: Date.now() })).toMatchObject({ kind: "later" });
    const retryAt = (await deliveryOf(saveId)).nextAttemptAt;
    expect(retryAt).toBeGreaterThan(Date.now());
    // Run again before it: the tally comes from the rows read for the due list, and still names the retry.
    expect(await notifyStage(deps("webhook"), job, { now: Date.now() })).toMatchObject({ kind: "later", runAt: retryAt, note: "sent=0 failed=0 skipped=0 pending=1" });
    expect(api.requestsTo("/hook")).toHaveLength(1);
  });
});
