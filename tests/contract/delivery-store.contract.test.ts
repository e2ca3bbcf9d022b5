/**
 * The delivery store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. A row
 * per routed target, a delivery sent once and never again, retries from their retry time, attempts fenced by the
 * job's lease, and one push per refresh, with two deciders racing on connections of their own.
 */
import { beforeEach, expect, test } from "bun:test";
import type { DataType } from "../../src/capture/data-types.ts";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import { type PushCandidate, dueAt } from "../../src/store/model/deliveries.ts";
import { advanceChange, holderOf, type ClaimedJob, type JobStage } from "../../src/store/model/jobs.ts";
import { claimDeliveryAttempt } from "../../src/db/deliveries/rows.ts";
import type { Step } from "../../src/db/dialect/statements.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const T0 = 1_700_000_000_000;
const LEASE = 60_000;
const PLAYER = "7488393821744390161";
const WEBHOOK = [{ channel: "webhook", target: "default" }];
const CONFIGURED = new Set(["webhook"]);

describeEachStore("delivery store", (s) => {
  let store: DeliveryStore;
  beforeEach(() => void (store = s.stores.deliveries));
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

  /** store.decidePush, whose deliveries must be the save's rows as ofSave reads them after it. */
  const decide = async (...args: Parameters<DeliveryStore["decidePush"]>) => {
    const { deliveries, ...decision } = await store.decidePush(...args);
    expect(deliveries).toEqual(await store.ofSave(args[0].saveId));
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

  test("one push per refresh: a repeat of the last push gets none; other drops, a forced push, a save already pushed do", async () => {
    const first = await f.addSave(PLAYER, "drops", T0);
    const repeat = await f.addSave(PLAYER, "drops", T0 + 1);
    const other = await f.addSave(PLAYER, "other drops", T0 + 2);
    expect(await decide(candidate(first), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(repeat), WEBHOOK, CONFIGURED, T0)).toEqual({ push: false, repeatOf: first });
    expect(await f.rows(repeat)).toEqual([]);
    expect((await f.save(repeat)).repeatOf).toBe(first);
    expect(await decide(candidate(other, "other drops"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide({ ...candidate(repeat), checkRepeat: false }, WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect((await f.save(repeat)).repeatOf).toBeNull();
    // The first is no longer the last push, but was pushed: it stays pushed.
    expect(await decide(candidate(first), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
  });

  test("the same drops again repeat the last push; after other drops were pushed, they push again", async () => {
    const saves: number[] = [];
    for (const [i, drops] of ["A", "A", "B", "A"].entries()) saves.push(await f.addSave(PLAYER, drops, T0 + i));
    const [a, again, b, backToA] = saves as [number, number, number, number];
    expect(await decide(candidate(a, "A"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(again, "A"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: false, repeatOf: a });
    expect(await decide(candidate(b, "B"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(backToA, "A"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect([(await f.rows(backToA)).length, (await f.save(backToA)).repeatOf]).toEqual([1, null]);
  });

  test("another player's push is not this player's", async () => {
    const other = "1000000000000000001";
    expect(await decide(candidate(await f.addSave(other, "A", T0), "A", other), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(await f.addSave(PLAYER, "A", T0 + 1), "A"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
  });

  test("a save routed to none, or only to channels not configured, is not a push: the next save with its drops pushes", async () => {
    const none = await f.addSave(PLAYER, "A", T0);
    expect(await decide(candidate(none, "A"), [], CONFIGURED, T0)).toEqual({ push: true });
    const unconfigured = await f.addSave(PLAYER, "A", T0 + 1);
    expect(await decide(candidate(unconfigured, "A"), [{ channel: "telegram", target: "default" }], CONFIGURED, T0)).toEqual({ push: true });
    expect((await f.rows(unconfigured)).map((row) => row.state)).toEqual(["skipped"]);
    expect(await decide(candidate(await f.addSave(PLAYER, "A", T0 + 2), "A"), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
  });

  test("a birthday party pushed in between: the next visit of the same refresh is still a repeat, the party is judged against parties", async () => {
    const player = "1234000000000000042";
    const first = await f.addSave(player, "drops", T0);
    const party = await f.addSave(player, "party drops", T0 + 1, "mysekai_birthday_party");
    const again = await f.addSave(player, "drops", T0 + 2);
    const partyAgain = await f.addSave(player, "party drops", T0 + 3, "mysekai_birthday_party");
    expect(await decide(candidate(first, "drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(party, "party drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(again, "drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: false, repeatOf: first });
    expect(await decide(candidate(partyAgain, "party drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: false, repeatOf: party });
  });

  test("a party refresh is the newest harvest state: the save's next visit, holding its drops, repeats it", async () => {
    const player = "1234000000000000043";
    const first = await f.addSave(player, "drops", T0);
    const refresh = await f.addSave(player, "refreshed drops", T0 + 1, "mysekai_birthday_party");
    const visit = await f.addSave(player, "refreshed drops", T0 + 2);
    const next = await f.addSave(player, "next refresh", T0 + 3);
    expect(await decide(candidate(first, "drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(refresh, "refreshed drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
    expect(await decide(candidate(visit, "refreshed drops", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: false, repeatOf: refresh });
    expect(await decide(candidate(next, "next refresh", player), WEBHOOK, CONFIGURED, T0)).toEqual({ push: true });
  });

  test("two saves of one refresh decided at once on two connections: exactly one is pushed, each time", async () => {
    const another = await f.another();
    for (let round = 0; round < 8; round++) {
      const player = String(1_000_000_000_000_000_000n + BigInt(round));
      const saves = [await f.addSave(player, "drops", T0), await f.addSave(player, "drops", T0 + 1)];
      const decisions = await Promise.all([store, another].map((decider, i) => decider.decidePush(candidate(saves[i]!, "drops", player), WEBHOOK, CONFIGURED, T0)));
      expect(decisions.filter((decision) => decision.push)).toHaveLength(1);
      const pushed = saves[decisions.findIndex((decision) => decision.push)]!;
      expect(decisions.find((decision) => !decision.push)).toEqual({ push: false, repeatOf: pushed, deliveries: [] });
      expect((await Promise.all(saves.map(f.rows))).flat()).toHaveLength(1);
    }
  });
});
