/**
 * The owner store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. Two
 * stores on one database stand for two processes of a hub: what one writes, the other answers. The setup token,
 * players' links, API tokens and public switches, data webhooks, the catalogue update.
 */
import { beforeEach, expect, test } from "bun:test";
import type { OwnerStore } from "../../src/store/ports/owner.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const T0 = 1_700_000_000_000;
const PLAYER = "7485938820123456789";

describeEachStore("owner store", (s) => {
  let store: OwnerStore;
  beforeEach(() => void (store = s.stores.owner));
  const another = async () => (await s.another()).owner;
  /** What a table holds: hashes in place of secrets, and the tables' bounds, are the subject here. */
  const tableRows = (table: Parameters<typeof s.stored.everyRowOf>[0]) => s.stored.everyRowOf(table);

  test("the setup token is made once, whoever asks first; a rotation on one process is the token of every other", async () => {
    const other = await another();
    const [first, second] = await Promise.all([store.links.setupToken(T0), other.links.setupToken(T0)]);
    expect(first).toBe(second!);
    expect(await store.links.setupToken()).toBe(first);
    const rotated = await other.links.rotateSetupToken(T0 + 1);
    expect(rotated).not.toBe(first);
    expect(await store.links.setupToken()).toBe(rotated);
    expect(await store.links.setupTokenMatches(rotated)).toBe(true);
    expect(await other.links.setupTokenMatches(first!)).toBe(false);
    expect(await store.links.servedBase()).toBeNull();
    await store.links.recordServedBase("https://hub.example", T0);
    expect(await other.links.servedBase()).toBe("https://hub.example");
  });

  test("a player's link opens on every process, matched on its sha256; a new link ends the old one", async () => {
    const other = await another();
    const made = await store.links.linkPlayer(PLAYER, "Mizuki", T0);
    expect(made).toEqual({ player: { playerId: PLAYER, name: "Mizuki", token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), createdAt: T0, linkOnlySince: null }, replaced: false });
    expect(await other.links.playerByToken(made.player.token)).toEqual(made.player);
    expect((await tableRows("players"))[0]).toMatchObject({ token_sha256: sha256Hex(made.player.token) });
    expect(await other.links.playerByToken("not a token!")).toBeNull();
    expect(await other.links.playerByToken("A".repeat(32))).toBeNull();

    const again = await other.links.linkPlayer(PLAYER, null, T0 + 1);
    expect(again.replaced).toBe(true);
    expect(await store.links.playerByToken(made.player.token)).toBeNull();
    expect(await store.links.playerByToken(again.player.token)).toEqual(again.player);
    await store.links.linkPlayer("1000", "Ena", T0 + 2);
    expect((await other.links.linkedPlayers()).map((player) => player.playerId)).toEqual(["1000", PLAYER]);
    expect(await other.links.linkedPlayer("1000")).toMatchObject({ name: "Ena" });
    expect(await other.links.linkedPlayer("999")).toBeNull();
  });

  test("no stored value opens a link or the setup URLs; a process with another link key matches by hash but shows no token", async () => {
    const setup = (await store.links.setupToken(T0))!;
    const { player } = await store.links.linkPlayer(PLAYER, "Mizuki", T0);
    await store.links.linkPlayer("1000", null, T0);
    const stored = [...(await tableRows("settings")), ...(await tableRows("players"))];
    const dump = JSON.stringify(stored);
    expect(dump).not.toContain(setup);
    expect(dump).not.toContain(player.token);
    const values = stored.flatMap((row) => Object.values(row)).filter((value): value is string => typeof value === "string");
    const candidates = [...values, ...values.flatMap((value) => value.split(/[:.]/))];
    for (const value of candidates) {
      expect(await store.links.playerByToken(value)).toBeNull();
      expect(await store.links.setupTokenMatches(value)).toBe(false);
    }
    expect(await store.links.setupTokenMatches(setup)).toBe(true);
    expect((await store.links.linkedPlayer(PLAYER))?.token).toBe(player.token);

    const otherKey = (await s.another(undefined, { LINK_KEY: "another link key, 32 characters or more" })).owner;
    expect(await otherKey.links.setupToken()).toBeNull();
    expect(await otherKey.links.setupTokenMatches(setup)).toBe(true);
    expect(await otherKey.links.linkedPlayer(PLAYER)).toMatchObject({ playerId: PLAYER, token: null });
    expect(await otherKey.links.playerByToken(player.token)).toMatchObject({ playerId: PLAYER, token: player.token });
  });

  test("an older version's clear tokens keep opening and are shown as before, sealed at the next start", async () => {
    const [link, setup] = ["OldClearLinkToken_0123456789abcd", "OldClearSetupToken-0123456789abc"];
    await s.sql.insert("players", { playerId: PLAYER, name: "Old", token: link, tokenSha256: sha256Hex(link), createdAt: T0 });
    await s.sql.insert("settings", { key: "setup_token", value: setup, updatedAt: T0 });
    expect(await store.links.sealClearTokens()).toBe(2);
    expect(await store.links.sealClearTokens()).toBe(0);
    const dump = JSON.stringify([...(await tableRows("settings")), ...(await tableRows("players"))]);
    expect(dump).not.toContain(link);
    expect(dump).not.toContain(setup);
    const other = await another();
    expect(await other.links.playerByToken(link)).toMatchObject({ playerId: PLAYER, name: "Old" });
    expect((await other.links.linkedPlayer(PLAYER))?.token).toBe(link);
    expect(await other.links.setupToken()).toBe(setup);
    expect(await other.links.setupTokenMatches(setup)).toBe(true);
  });

  test("a player's uploads become link-only once, on every process; a new link keeps it; the owner's reset lifts it", async () => {
    const other = await another();
    await store.links.linkPlayer(PLAYER, null, T0);
    await store.links.markLinkOnly(PLAYER, T0 + 5);
    await other.links.markLinkOnly(PLAYER, T0 + 9);
    expect(await other.links.linkedPlayer(PLAYER)).toMatchObject({ linkOnlySince: T0 + 5 });
    expect((await other.links.linkPlayer(PLAYER, null, T0 + 10)).player.linkOnlySince).toBe(T0 + 5);
    expect(await other.links.resetLinkOnly(PLAYER)).toBe(true);
    expect(await store.links.resetLinkOnly(PLAYER)).toBe(false);
    expect(await store.links.linkedPlayer(PLAYER)).toMatchObject({ linkOnlySince: null });
    expect(await store.links.resetLinkOnly("999")).toBe(false);
  });

  test("an API token is shown once and stored as its sha256 only; it reads what it was given, on every process, until revoked", async () => {
    const other = await another();
    const some = await store.access.addApiToken("bot", [PLAYER, "1000"], T0);
    const every = await store.access.addApiToken("all", null, T0);
    expect(some).toMatch(/^msk_[A-Za-z0-9_-]{32}$/);
    const rows = await tableRows("api_tokens");
    expect(JSON.stringify(rows)).not.toContain(some.slice(4));
    expect(rows.map((row) => row.token_sha256).sort()).toEqual([sha256Hex(some), sha256Hex(every)].sort());
    expect(await other.access.apiTokenGrant(some)).toEqual({ name: "bot", players: [PLAYER, "1000"], createdAt: T0 });
    expect(await other.access.apiTokenGrant(every)).toEqual({ name: "all", players: null, createdAt: T0 });
    expect(await other.access.apiTokenGrant(`${some}x`)).toBeNull();
    expect(await other.access.listApiTokens()).toEqual([
      { name: "all", players: null, createdAt: T0 },
      { name: "bot", players: [PLAYER, "1000"], createdAt: T0 },
    ]);

    const renewed = await other.access.addApiToken("bot", [PLAYER], T0 + 1);
    expect(await store.access.apiTokenGrant(some)).toBeNull();
    expect(await store.access.apiTokenGrant(renewed)).toEqual({ name: "bot", players: [PLAYER], createdAt: T0 + 1 });
    expect(await store.access.revokeApiToken("bot")).toBe(true);
    expect(await other.access.apiTokenGrant(renewed)).toBeNull();
    expect(await other.access.revokeApiToken("bot")).toBe(false);
  });

  test("a player's public reads switch on and off on one process and read so on every other", async () => {
    const other = await another();
    expect(await other.access.isPlayerPublic(PLAYER)).toBe(false);
    await store.access.setPlayerPublic(PLAYER, true, T0);
    await store.access.setPlayerPublic(PLAYER, true, T0 + 1);
    expect(await other.access.isPlayerPublic(PLAYER)).toBe(true);
    expect(await tableRows("public_players")).toEqual([{ player_id: PLAYER, since: T0 }]);
    await other.access.setPlayerPublic(PLAYER, false);
    expect(await store.access.isPlayerPublic(PLAYER)).toBe(false);
  });

  test("data webhooks registered on one process are listed and removed on another", async () => {
    const other = await another();
    const first = await store.webhooks.add("https://bot.example/hook?k=1", "secret", T0);
    const second = await store.webhooks.add("https://bot.example/other", null, T0 + 1, { payload: "json-zstd", checkUrl: "https://bot.example/has/{user_id}" });
    expect(second).toBeGreaterThan(first);
    expect(await other.webhooks.list()).toEqual([
      { id: first, url: "https://bot.example/hook?k=1", bearer: "secret", payload: "empty", checkUrl: null, createdAt: T0 },
      { id: second, url: "https://bot.example/other", bearer: null, payload: "json-zstd", checkUrl: "https://bot.example/has/{user_id}", createdAt: T0 + 1 },
    ]);
    expect(await other.webhooks.remove(first)).toBe(true);
    expect(await store.webhooks.remove(first)).toBe(false);
    expect((await store.webhooks.list()).map((hook) => hook.id)).toEqual([second]);
  });

  test("the owner's catalogue update written on one process is read on every other; each write moves the stamp, even within one millisecond", async () => {
    const other = (await another()).catalogue;
    expect(await other.stamp()).toBeNull();
    expect(await other.read()).toBeNull();
    await store.catalogue.write('{"v":1}', T0);
    const first = await other.stamp();
    expect(await other.read()).toEqual({ stamp: String(first), text: '{"v":1}' });
    await store.catalogue.write('{"v":2}', T0);
    const second = await other.stamp();
    expect(second).toBeGreaterThan(first!);
    expect(await other.read()).toEqual({ stamp: String(second), text: '{"v":2}' });
  });
});
