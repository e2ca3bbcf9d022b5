/**
 * The delivery store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. A row
 * per routed target and per consumer webhook, kept by later runs, and their tally.
 */
import { beforeEach, expect, test } from "bun:test";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import { dueAt } from "../../src/store/model/deliveries.ts";
import { advanceChange } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { CONFIGURED, deliveryStoreFixture, LEASE, PLAYER, T0, WEBHOOK } from "../helpers/delivery-store-contract.ts";

describeEachStore("delivery store", (s) => {
  let store: DeliveryStore;
  beforeEach(() => void (store = s.stores.deliveries));
  const { f, decide, candidate, heldDelivery } = deliveryStoreFixture(s);

  test("a row per routed target: pending when sendable, skipped with the reason otherwise; a target routed no more is skipped", async () => {
    const saveId = await f.addSave(PLAYER, "drops", T0);
    const targets = [
      { channel: "telegram", target: "default" },
      { channel: "bark", target: "ghost", problem: 'Bark alias "ghost" is not in bark_map.json' },
      { channel: "discord", target: "default" },
    ];
    expect(await decide(candidate(saveId), targets, new Set(["telegram", "bark"]), T0)).toEqual({ push: true });
    const summary = async () => (await f.rows(saveId)).map((row) => [`${row.channel}/${row.target}`, row.state, row.lastError]);
    expect(await summary()).toEqual([
      ["telegram/default", "pending", null],
      ["bark/ghost", "skipped", 'Bark alias "ghost" is not in bark_map.json'],
      ["discord/default", "skipped", "channel discord is not configured"],
    ]);
    // The route changed (the save took a real player id): the old target gets nothing not yet sent, and no row twice.
    expect(await decide(candidate(saveId), [...targets, ...WEBHOOK].slice(1), new Set(["bark", "webhook"]), T0 + 1)).toEqual({ push: true });
    expect((await summary())[0]).toEqual(["telegram/default", "skipped", "no longer routed to this player"]);
    expect((await f.rows(saveId)).length).toBe(4);
    expect((dueAt(await store.ofSave(saveId), T0 + 1)).map((row) => row.channel)).toEqual(["webhook"]);
    expect(await store.tally(saveId)).toEqual({ sent: 0, failed: 0, skipped: 3, pending: 1, nextAttemptAt: T0 + 1 });
  });

  test("a later run keeps the rows it finds (a sent one stays sent), skips pending targets routed no more, adds new ones", async () => {
    const { saveId, holder, id } = await heldDelivery();
    const routes = [...WEBHOOK, { channel: "telegram", target: "default" }, { channel: "bark", target: "old" }];
    const all = new Set(["webhook", "telegram", "bark"]);
    await decide(candidate(saveId), routes, all, T0);
    expect(await store.claimAttempt(holder, { id, seenAttempts: 0 }, T0 + 1, LEASE)).toBe("claimed");
    await store.markSent(id, T0 + 2);
    await decide(candidate(saveId), [{ channel: "telegram", target: "default" }, { channel: "bark", target: "new" }], all, T0 + 3);
    expect((await f.rows(saveId)).map((row) => [`${row.channel}/${row.target}`, row.state, row.lastError])).toEqual([
      ["webhook/default", "sent", null],
      ["telegram/default", "pending", null],
      ["bark/old", "skipped", "no longer routed to this player"],
      ["bark/new", "pending", null],
    ]);
  });

  test("the tally counts every state and takes the earliest pending attempt; due means pending and at or past its next attempt", async () => {
    const { saveId, holder, id: webhook } = await heldDelivery();
    const channels = ["telegram", "discord", "onebot"];
    const routes = [...WEBHOOK, ...channels.map((channel) => ({ channel, target: "default" })), { channel: "bark", target: "ghost", problem: "no such alias" }];
    await decide(candidate(saveId), routes, new Set([...channels, "webhook", "bark"]), T0);
    const idOf = async (channel: string) => (await f.rows(saveId)).find((row) => row.channel === channel)!.id;
    const fail = async (id: number, retryAt: number | null, attempt = 1) => {
      expect(await store.claimAttempt(holder, { id, seenAttempts: attempt - 1 }, T0 + 1, LEASE)).toBe("claimed");
      await store.markAttemptFailed({ deliveryId: id, attempt }, "HTTP 500", retryAt);
    };
    // Sent after a failed attempt: the error goes with it.
    const telegram = await idOf("telegram");
    await fail(telegram, T0 + 2);
    expect(await store.claimAttempt(holder, { id: telegram, seenAttempts: 1 }, T0 + 2, LEASE)).toBe("claimed");
    await store.markSent(telegram, T0 + 5);
    await fail(await idOf("discord"), T0 + 7);
    await fail(await idOf("onebot"), T0 + 3);
    await fail(webhook, null);
    expect(await f.rows(saveId)).toContainEqual(expect.objectContaining({ id: telegram, state: "sent", sentAt: T0 + 5, lastError: null }));
    expect(await store.tally(saveId)).toEqual({ sent: 1, failed: 1, skipped: 1, pending: 2, nextAttemptAt: T0 + 3 });
    expect(dueAt(await store.ofSave(saveId), T0 + 2)).toEqual([]);
    expect(dueAt(await store.ofSave(saveId), T0 + 3).map((row) => row.channel)).toEqual(["onebot"]);
    expect(dueAt(await store.ofSave(saveId), T0 + 7).map((row) => row.channel).sort()).toEqual(["discord", "onebot"]);
  });

  test("a save reprocessed with its push has no deliveries left: the next decision sends to every target again", async () => {
    const { saveId, job, holder, id } = await heldDelivery();
    const other = await f.addSave(PLAYER, "other drops", T0);
    await decide(candidate(other, "other drops"), WEBHOOK, CONFIGURED, T0);
    expect(await store.claimAttempt(holder, { id, seenAttempts: 0 }, T0 + 1, LEASE)).toBe("claimed");
    await store.markSent(id, T0 + 2);
    expect(await s.stores.jobs.record(job, advanceChange("done", T0 + 3), T0 + 3)).toBe("recorded");
    expect(await s.stores.jobs.reprocess(saveId, true, T0 + 4)).toBe(true);
    expect(await f.rows(saveId)).toEqual([]);
    expect(await f.rows(other)).toHaveLength(1);
    expect(await decide({ ...candidate(saveId), checkRepeat: false }, WEBHOOK, CONFIGURED, T0 + 5)).toEqual({ push: true });
    expect(await f.rows(saveId)).toMatchObject([{ channel: "webhook", state: "pending", attempts: 0 }]);
  });

  test("consumer webhooks: a row per hook, never twice; a removed hook's pending row is skipped", async () => {
    const hooks = [await f.addDataWebhook("https://bot.example/a"), await f.addDataWebhook("https://bot.example/b")];
    const saveId = await f.addSave(PLAYER, "drops", T0);
    await store.addDataWebhookDeliveries(saveId, T0);
    await store.addDataWebhookDeliveries(saveId, T0 + 1);
    expect((await f.rows(saveId)).map((row) => [row.channel, row.target, row.state])).toEqual(hooks.map((id) => ["data-webhook", String(id), "pending"]));
    expect(await store.dataWebhook(hooks[0]!)).toMatchObject({ url: "https://bot.example/a" });
    await f.removeDataWebhook(hooks[0]!);
    expect(await store.dataWebhook(hooks[0]!)).toBeUndefined();
    await store.addDataWebhookDeliveries(saveId, T0 + 2);
    expect((await f.rows(saveId)).map((row) => [row.state, row.lastError])).toEqual([
      ["skipped", "data webhook removed"],
      ["pending", null],
    ]);
    // The decision's rows carry them too, beside the push's own (decide checks them against ofSave).
    expect(await decide(candidate(saveId), WEBHOOK, CONFIGURED, T0 + 3)).toEqual({ push: true });
    expect((await store.ofSave(saveId)).map((row) => row.channel)).toEqual(["data-webhook", "data-webhook", "webhook"]);
  });
});
