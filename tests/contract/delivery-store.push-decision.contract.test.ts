/**
 * The delivery store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. One push
 * per refresh, with two deciders racing on connections of their own.
 */
import { beforeEach, expect, test } from "bun:test";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { CONFIGURED, deliveryStoreFixture, PLAYER, T0, WEBHOOK } from "../helpers/delivery-store-contract.ts";

describeEachStore("delivery store", (s) => {
  let store: DeliveryStore;
  beforeEach(() => void (store = s.stores.deliveries));
  const { f, decide, candidate } = deliveryStoreFixture(s);

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
