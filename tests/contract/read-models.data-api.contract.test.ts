/**
 * The read models' contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL, over rows
 * inserted through each dialect's schema: the answers are equal to the field, 19-digit player ids exact as strings,
 * JSON decoded. The data API's reads: the latest save per region and player, a save's bytes and stored
 * JSON, tokens' grants, public players, lunabot's subscription lists.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SAVE_JSON_FILE } from "../../src/archive/save-json-file.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { DAY, DEFAULT_REGION, HOUR, MAPS, MINUTE, OTHER, PLAYER, readModelRows, T0, THIRD } from "../helpers/read-models-contract.ts";

describeEachStore("read models", (s) => {
  const { insert, save, archive, archived } = readModelRows(s);

  test("data API: the latest archived save per (region, player), a save without a host in the default region", async () => {
    await archived(PLAYER, T0 - 3 * HOUR, MAPS, { region: "en" });
    const defaultOne = await archived(PLAYER, T0 - 2 * HOUR);
    await archived(PLAYER, T0 - 4 * HOUR, MAPS, { region: DEFAULT_REGION });
    await save(PLAYER, T0 - HOUR); // newest, but not archived yet
    const latest = await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER);
    expect(latest).toEqual({ id: defaultOne, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), source: "upload", receivedAt: T0 - 2 * HOUR });
    expect((await s.stores.dataReads.latest("en", PLAYER))?.receivedAt).toBe(T0 - 3 * HOUR);
    expect(await s.stores.dataReads.latest("tw", PLAYER)).toBeNull();
    expect(await s.stores.dataReads.latest(DEFAULT_REGION, OTHER)).toBeNull();
    const named = await archived(PLAYER, T0 - 90 * MINUTE, MAPS, { region: DEFAULT_REGION });
    expect((await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER))?.id).toBe(named);
    // lunabot's poll reads the same time of all its players at once; players without such a save are left out.
    await archived(OTHER, T0 - 5 * HOUR);
    const byPlayer = (uploads: { playerId: string; receivedAt: number }[]) => [...uploads].sort((a, b) => a.playerId.localeCompare(b.playerId));
    expect(byPlayer(await s.stores.dataReads.uploadTimes(DEFAULT_REGION, [PLAYER, OTHER, THIRD]))).toEqual(byPlayer([{ playerId: PLAYER, receivedAt: T0 - 90 * MINUTE }, { playerId: OTHER, receivedAt: T0 - 5 * HOUR }]));
    expect(await s.stores.dataReads.uploadTimes("en", [PLAYER, OTHER])).toEqual([{ playerId: PLAYER, receivedAt: T0 - 3 * HOUR }]);
    expect(await s.stores.dataReads.uploadTimes("en", [])).toEqual([]);
  });

  test("data API: a partial refresh never replaces a full save as the latest, nor a party delivery kept as a record; a party refresh after it brings its maps", async () => {
    const full = await archived(PLAYER, T0 - 3 * HOUR);
    await archived(PLAYER, T0 - 2 * HOUR, ["save.bin", "summary.json"], { partial: true });
    await archived(PLAYER, T0 - 90 * MINUTE, ["save.bin", "summary.json"], { dataType: "mysekai_birthday_party", partial: true });
    const bare = async (id: number) => (await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER))?.id === id && (await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER))?.harvestMaps === undefined;
    expect(await bare(full)).toBe(true);
    expect(await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER, "mysekai_birthday_party")).toBeNull();
    expect(await s.stores.dataReads.uploadTimes(DEFAULT_REGION, [PLAYER])).toEqual([{ playerId: PLAYER, receivedAt: T0 - 3 * HOUR }]);

    const party = await archived(PLAYER, T0 - HOUR, ["save.bin", "site_5.png"], { dataType: "mysekai_birthday_party" });
    const latest = await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER, "mysekai");
    expect([latest?.id, latest?.harvestMaps?.id, latest?.harvestMaps?.receivedAt]).toEqual([full, party, T0 - HOUR]);
    expect((await s.stores.dataReads.latest(DEFAULT_REGION, PLAYER, "mysekai_birthday_party"))?.id).toBe(party);
    expect(await s.stores.dataReads.latest(DEFAULT_REGION, OTHER, "mysekai_birthday_party")).toBeNull();
    // upload_times moves with the refresh, both lists.
    expect(await s.stores.dataReads.recentUploads(DEFAULT_REGION, 10)).toEqual([{ playerId: PLAYER, receivedAt: T0 - HOUR }]);
    expect(await s.stores.dataReads.uploadTimes(DEFAULT_REGION, [PLAYER])).toEqual([{ playerId: PLAYER, receivedAt: T0 - HOUR }]);

    // A full save after the refresh is the latest alone; a refresh without any full save before it is answered alone.
    const next = await archived(PLAYER, T0 - 30 * MINUTE);
    expect(await bare(next)).toBe(true);
    const alone = await archived(OTHER, T0 - HOUR, ["save.bin", "site_5.png"], { dataType: "mysekai_birthday_party" });
    expect(await s.stores.dataReads.latest(DEFAULT_REGION, OTHER)).toEqual({ id: alone, sha256: expect.any(String), source: "upload", receivedAt: T0 - HOUR });
  });

  test("data API: a save's bytes from the database, or its archived save.bin once cleared (checked against its sha256); its stored JSON", async () => {
    const kept = await archived(PLAYER, T0 - HOUR, [...MAPS, SAVE_JSON_FILE]);
    expect(new TextDecoder().decode((await s.stores.dataReads.encrypted(kept))!)).toMatch(new RegExp(`^save \\d+ of ${PLAYER} at ${T0 - HOUR}$`));
    const bytes = new TextEncoder().encode("cleared save");
    const cleared = await insert.save({ sha256: sha256Hex(bytes), playerId: OTHER, source: "upload", encrypted: null, size: bytes.length, receivedAt: T0 });
    await archive(cleared, OTHER, T0);
    expect(await s.stores.dataReads.encrypted(cleared)).toBeNull(); // no save.bin yet
    const folder = join(s.archiveRoot, `by-id/${OTHER}/${cleared}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "save.bin"), bytes);
    expect(await s.stores.dataReads.encrypted(cleared)).toEqual(bytes);
    writeFileSync(join(folder, "save.bin"), "damaged");
    expect(await s.stores.dataReads.encrypted(cleared)).toBeNull();
    expect(await s.stores.dataReads.encrypted(9999)).toBeNull();

    const keptFolder = join(s.archiveRoot, `by-id/${PLAYER}/${kept}`);
    mkdirSync(keptFolder, { recursive: true });
    writeFileSync(join(keptFolder, SAVE_JSON_FILE), "gzipped json");
    writeFileSync(join(folder, SAVE_JSON_FILE), "not listed in the archive's files");
    expect(new TextDecoder().decode((await s.stores.dataReads.storedJson(kept))!)).toBe("gzipped json");
    expect(await s.stores.dataReads.storedJson(cleared)).toBeNull();
  });

  test("data API: a token's grant (its 19-digit players exact) and the public switch", async () => {
    const token = await s.stores.owner.access.addApiToken("bot", [PLAYER, OTHER], T0);
    expect(await s.stores.dataReads.grant(token)).toEqual({ name: "bot", players: [PLAYER, OTHER], createdAt: T0 });
    expect(await s.stores.dataReads.grant(`${token}x`)).toBeNull();
    expect(await s.stores.dataReads.isPublic(PLAYER)).toBe(false);
    await s.stores.owner.access.setPlayerPublic(PLAYER, true, T0);
    expect(await s.stores.dataReads.isPublic(PLAYER)).toBe(true);
    expect(await s.stores.dataReads.isPublic(OTHER)).toBe(false);
  });

  test("data API: lunabot's subscription list per token and region, in order, replaced by each PUT; lists a day old swept with their players", async () => {
    const list = (uids: string[], peer = "10.0.0.1") => ({ pairs: uids.map((uid) => ({ uid, mode: "latest" })), peer, bytes: uids.length * 30 });
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([OTHER, PLAYER, THIRD]), T0 - 2 * DAY);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([OTHER, PLAYER, THIRD]), at: T0 - 2 * DAY });
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([THIRD, PLAYER], "10.0.0.2"), T0 - MINUTE);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([THIRD, PLAYER], "10.0.0.2"), at: T0 - MINUTE });
    await s.stores.dataReads.subscribe("bot", "en", list([OTHER]), T0 - 2 * DAY);
    await s.stores.dataReads.subscribe("other-bot", DEFAULT_REGION, list([PLAYER]), T0 - HOUR);
    expect(await s.stores.dataReads.subscription("bot", "tw")).toBeNull();
    // Any PUT sweeps the lists nobody sent again for a day, but its own.
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([PLAYER]), T0);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([PLAYER]), at: T0 });
    expect(await s.stores.dataReads.subscription("bot", "en")).toBeNull();
    expect(await s.stores.dataReads.subscription("other-bot", DEFAULT_REGION)).toEqual({ ...list([PLAYER]), at: T0 - HOUR });
    // The same list again rewrites none of its pairs (a pair changed behind the store's back stays), only the
    // list's row; another list replaces them.
    await s.stored.setSubscriptionModes("local");
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([PLAYER], "10.0.0.3"), T0 + MINUTE);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ pairs: [{ uid: PLAYER, mode: "local" }], peer: "10.0.0.3", bytes: 30, at: T0 + MINUTE });
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([OTHER]), T0 + MINUTE);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([OTHER]), at: T0 + MINUTE });
    // A longer list's tail left behind (two PUTs at once on a hub): the same list again mends it.
    await s.sql.insert("msr_subscription_players", { tokenName: "bot", region: DEFAULT_REGION, position: 1, playerId: THIRD, mode: "latest" });
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([OTHER]), T0 + MINUTE);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([OTHER]), at: T0 + MINUTE });
    // The longest list whole; an empty one.
    const longest = list(Array.from({ length: 1000 }, (_, i) => `${PLAYER.slice(0, -4)}${String(i).padStart(4, "0")}`));
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, longest, T0);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...longest, at: T0 });
    await s.stores.dataReads.subscribe("bot", DEFAULT_REGION, list([]), T0);
    expect(await s.stores.dataReads.subscription("bot", DEFAULT_REGION)).toEqual({ ...list([]), at: T0 });
  });
});
