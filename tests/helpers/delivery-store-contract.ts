/** The delivery store contract suites' saves, decisions and held deliveries (tests/contract/delivery-store.*.contract.test.ts), on the store under test. */
import { expect } from "bun:test";
import type { DataType } from "../../src/capture/data-types.ts";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import type { PushCandidate } from "../../src/store/model/deliveries.ts";
import { holderOf, type ClaimedJob, type JobStage } from "../../src/store/model/jobs.ts";
import type { StoreUnderTest } from "./contract-stores.ts";

export const T0 = 1_700_000_000_000;
export const LEASE = 60_000;
export const PLAYER = "7488393821744390161";
export const WEBHOOK = [{ channel: "webhook", target: "default" }];
export const CONFIGURED = new Set(["webhook"]);

export function deliveryStoreFixture(s: StoreUnderTest) {
  const f = {
    /** A save drawn with these drops, as generate leaves it; its job then at `stage` (done unless given). */
    addSave: async (playerId: string, drops: string, at: number, dataType?: DataType, stage: JobStage = "done") => {
      const saveId = await s.rows.save({ playerId, at, dataType });
      await s.rows.drawn(saveId, { at, drops, stage });
      return saveId;
    },
    /** The save's deliveries, oldest first. */
    rows: (saveId: number) => s.stores.deliveries.ofSave(saveId),
    save: async (id: number) => (await s.stores.stageStore.saveToDraw(id))!.save,
    job: (id: number) => s.jobRows.job(id),
    addDataWebhook: (url: string) => s.stores.owner.webhooks.add(url, null, 0),
    removeDataWebhook: (id: number) => s.stores.owner.webhooks.remove(id),
    another: async () => (await s.another()).deliveries,
  };

  /** decidePush, whose deliveries must be the save's rows as ofSave reads them after it. */
  const decide = async (...args: Parameters<DeliveryStore["decidePush"]>) => {
    const { deliveries, ...decision } = await s.stores.deliveries.decidePush(...args);
    expect(deliveries).toEqual(await s.stores.deliveries.ofSave(args[0].saveId));
    return decision;
  };
  const candidate = (saveId: number, dropsFingerprint = "drops", playerId = PLAYER): PushCandidate => ({ saveId, playerId, dropsFingerprint, checkRepeat: true });
  /** A save whose notify job is claimed at `at`, with a pending delivery to the webhook. */
  const heldDelivery = async (at = T0) => {
    const saveId = await f.addSave(PLAYER, "drops", at, undefined, "notify");
    const job = (await s.stores.jobs.claim(at, LEASE, false)) as ClaimedJob;
    expect(job.subject).toEqual({ kind: "save", saveId });
    await decide(candidate(saveId), WEBHOOK, CONFIGURED, at);
    const [delivery] = await f.rows(saveId);
    return { saveId, job, holder: holderOf(job), id: delivery!.id };
  };
  return { f, decide, candidate, heldDelivery };
}
