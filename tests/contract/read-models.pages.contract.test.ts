/**
 * The read models' contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL, over rows
 * inserted through each dialect's schema: the answers are equal to the field, 19-digit player ids exact as strings,
 * JSON decoded. The pages' reads: the status page, the maps, a player's history (/healthz and /metrics read
 * the status page's counts).
 */
import { expect, test } from "bun:test";
import { HISTORY_DAYS, HISTORY_ROWS } from "../../src/store/model/pages.ts";
import type { RefreshDigest } from "../../src/maps/refresh-digest.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { DAY, digest, HOUR, MAPS, MINUTE, OTHER, PLAYER, readModelRows, T0, THIRD, type Inserts } from "../helpers/read-models-contract.ts";

describeEachStore("read models", (s) => {
  const { insert, save, archive, archived } = readModelRows(s);

  test("status page: queue by state, recent saves with their job, failures, reports, the day's counts", async () => {
    const s1 = await save(PLAYER, T0 - 3 * HOUR, { dataType: "mysekai_birthday_party" });
    const s2 = await save(OTHER, T0 - 2 * HOUR, { source: "report", partial: true });
    const s3 = await save(THIRD, T0 - HOUR);
    const report = await insert.report({ receivedAt: T0 - HOUR, shape: "har", entryCount: 3, candidateCount: 2, emptyBodies: 0, meta: { agent: "test" }, outcome: "save", saveId: s2 });
    const oldReport = await insert.report({ receivedAt: T0 - 3 * DAY, shape: "har", entryCount: 1, candidateCount: 0, emptyBodies: 1, meta: {} });
    const job = (values: Partial<Parameters<Inserts["job"]>[0]>) => insert.job({ stage: "notify", runAt: T0, createdAt: T0, updatedAt: T0, ...values });
    const j1 = await job({ saveId: s1, state: "pending", createdAt: T0 - 2 * HOUR });
    const j2 = await job({ saveId: s2, state: "running", createdAt: T0 - HOUR });
    const failed = await job({ saveId: s3, stage: "generate", state: "failed", lastError: "boom", updatedAt: T0 - 30 * MINUTE });
    const failedReport = await job({ reportId: oldReport, stage: "evaluate", state: "failed", lastError: "no save", updatedAt: T0 - 2 * DAY });
    const j5 = await job({ reportId: report, stage: "done", state: "done" });
    const listed = await s.stores.pages.jobList(undefined);
    expect(listed.map((row) => [row.id, row.saveId ?? `report ${row.reportId}`, row.playerId, row.state])).toEqual([
      [j5, `report ${report}`, null, "done"],
      [failedReport, `report ${oldReport}`, null, "failed"],
      [failed, s3, THIRD, "failed"],
      [j2, s2, OTHER, "running"],
      [j1, s1, PLAYER, "pending"],
    ]);
    expect(await s.stores.pages.jobList("failed")).toEqual([
      { id: failedReport, saveId: null, reportId: oldReport, playerId: null, stage: "evaluate", state: "failed", attempts: 0, runAt: T0, lastError: "no save" },
      { id: failed, saveId: s3, reportId: null, playerId: THIRD, stage: "generate", state: "failed", attempts: 0, runAt: T0, lastError: "boom" },
    ]);
    expect(await s.stores.pages.jobList(undefined, 2)).toHaveLength(2);
    const delivery = (values: Partial<Parameters<Inserts["delivery"]>[0]> & { saveId: number }) =>
      insert.delivery({ channel: "webhook", target: "default", nextAttemptAt: T0, createdAt: T0, ...values });
    const d1 = await delivery({ saveId: s1, state: "failed", attempts: 3, lastError: "HTTP 500", createdAt: T0 - 10 * MINUTE });
    await delivery({ saveId: s2, state: "sent", sentAt: T0 - 5 * MINUTE });
    const d3 = await delivery({ saveId: s2, channel: "bark", target: "phone", state: "failed", attempts: 1, lastError: "old", createdAt: T0 - 2 * DAY });

    expect(await s.stores.pages.queueSnapshot(T0)).toEqual({
      byState: { pending: 1, running: 1, pending_retry: 0, waiting_for_key: 0, failed: 2, done: 1 },
      depth: 2,
      oldestQueuedAgeMs: 2 * HOUR,
    });
    expect(await s.stores.pages.recentSaves()).toEqual([
      { id: s3, receivedAt: T0 - HOUR, playerId: THIRD, source: "upload", region: null, dataType: "mysekai", partial: false, stage: "generate", state: "failed" },
      { id: s2, receivedAt: T0 - 2 * HOUR, playerId: OTHER, source: "report", region: null, dataType: "mysekai", partial: true, stage: "notify", state: "running" },
      { id: s1, receivedAt: T0 - 3 * HOUR, playerId: PLAYER, source: "upload", region: null, dataType: "mysekai_birthday_party", partial: false, stage: "notify", state: "pending" },
    ]);
    expect(await s.stores.pages.recentSaves(1)).toHaveLength(1);
    expect(await s.stores.pages.failedJobs()).toEqual([
      { id: failed, saveId: s3, reportId: null, stage: "generate", lastError: "boom", updatedAt: T0 - 30 * MINUTE, playerId: THIRD, region: null },
      { id: failedReport, saveId: null, reportId: oldReport, stage: "evaluate", lastError: "no save", updatedAt: T0 - 2 * DAY, playerId: null, region: null },
    ]);
    expect(await s.stores.pages.failedDeliveries()).toEqual([
      { id: d3, saveId: s2, channel: "bark", target: "phone", lastError: "old", attempts: 1, playerId: OTHER },
      { id: d1, saveId: s1, channel: "webhook", target: "default", lastError: "HTTP 500", attempts: 3, playerId: PLAYER },
    ]);
    expect(await s.stores.pages.recentReports()).toEqual([
      { id: oldReport, receivedAt: T0 - 3 * DAY, shape: "har", candidates: 0, outcome: null, saveId: null },
      { id: report, receivedAt: T0 - HOUR, shape: "har", candidates: 2, outcome: "save", saveId: s2 },
    ]);
    expect(await s.stores.pages.countsSince(T0 - DAY)).toEqual({ saves: 3, reports: 1, deliveriesSent: 1, deliveriesFailed: 1, jobsFailed: 1 });
    expect(await s.stores.pages.databaseBytes()).toBeGreaterThan(0);
  });

  test("status page: jobs and pushes waiting for a retry after an error, the soonest first; none without an error", async () => {
    const s1 = await save(PLAYER, T0 - 3 * HOUR);
    const s2 = await save(OTHER, T0 - 2 * HOUR);
    const job = (values: Partial<Parameters<Inserts["job"]>[0]>) => insert.job({ stage: "generate", runAt: T0, createdAt: T0, updatedAt: T0, ...values });
    const later = await job({ saveId: s1, state: "pending_retry", attempts: 2, lastError: "render timed out", runAt: T0 + 10 * MINUTE });
    const sooner = await job({ saveId: s2, state: "pending_retry", attempts: 1, lastError: "archive busy", runAt: T0 + MINUTE });
    // A notify job waiting on its deliveries carries no error of its own; a pending job never met one.
    await job({ saveId: await save(THIRD, T0 - HOUR), stage: "notify", state: "pending_retry", runAt: T0 });
    await job({ saveId: await save(THIRD, T0 - MINUTE), state: "pending", lastError: "an old error", runAt: T0 });
    expect(await s.stores.pages.retryingJobs()).toEqual([
      { id: sooner, saveId: s2, reportId: null, stage: "generate", lastError: "archive busy", attempts: 1, runAt: T0 + MINUTE, playerId: OTHER, region: null },
      { id: later, saveId: s1, reportId: null, stage: "generate", lastError: "render timed out", attempts: 2, runAt: T0 + 10 * MINUTE, playerId: PLAYER, region: null },
    ]);
    expect(await s.stores.pages.retryingJobs(1)).toHaveLength(1);
    const delivery = (values: Partial<Parameters<Inserts["delivery"]>[0]> & { saveId: number }) =>
      insert.delivery({ channel: "webhook", target: "default", nextAttemptAt: T0, createdAt: T0, ...values });
    const waiting = await delivery({ saveId: s1, state: "pending", attempts: 1, lastError: "webhook: HTTP 503", nextAttemptAt: T0 + 5 * MINUTE });
    await delivery({ saveId: s2, state: "pending" });
    await delivery({ saveId: s2, channel: "bark", target: "phone", state: "failed", attempts: 3, lastError: "gone" });
    expect(await s.stores.pages.retryingDeliveries()).toEqual([
      { id: waiting, saveId: s1, channel: "webhook", target: "default", lastError: "webhook: HTTP 503", attempts: 1, nextAttemptAt: T0 + 5 * MINUTE, playerId: PLAYER, region: null },
    ]);
  });

  test("maps: each player's newest archive with maps, newest players first; a newest archive without maps shows none; an archive by its token", async () => {
    await archived(PLAYER, T0 - 3 * HOUR);
    const newestOfPlayer = await archived(PLAYER, T0 - HOUR, ["save.bin", "site_6.png"]);
    const other = await archived(OTHER, T0 - 4 * HOUR);
    await archived(THIRD, T0 - 5 * HOUR);
    await archived(THIRD, T0 - 30 * MINUTE, ["save.bin"]);
    expect(await s.stores.pages.latestMaps()).toEqual([
      { playerId: PLAYER, createdAt: T0 - HOUR, receivedAt: T0 - HOUR, region: null, token: `token-${newestOfPlayer}`, pngs: ["site_6.png"] },
      { playerId: OTHER, createdAt: T0 - 4 * HOUR, receivedAt: T0 - 4 * HOUR, region: null, token: `token-${other}`, pngs: ["site_6.png", "site_5.png", "overview.png"] },
    ]);
    // The newest player's newest archive has no maps: it takes its place in the count and shows nothing.
    expect(await s.stores.pages.latestMaps(1)).toEqual([]);
    expect(await s.stores.pages.mapsOfPlayer(PLAYER)).toEqual([{ playerId: PLAYER, createdAt: T0 - HOUR, receivedAt: T0 - HOUR, region: null, token: `token-${newestOfPlayer}`, pngs: ["site_6.png"] }]);
    expect((await s.stores.pages.mapsOfPlayer(PLAYER, 5)).map((maps) => maps.createdAt)).toEqual([T0 - HOUR, T0 - 3 * HOUR]);
    expect(await s.stores.pages.mapsOfPlayer("42")).toEqual([]);
    expect(await s.stores.pages.archiveByToken(`token-${other}`)).toEqual({ relPath: `by-id/${OTHER}/${other}`, files: MAPS });
    expect(await s.stores.pages.archiveByToken("token-0")).toBeNull();
  });

  test("maps: the latest are the newest harvest state's (a full save, a party refresh), never a party delivery kept as a record or a partial refresh", async () => {
    const full = await archived(PLAYER, T0 - 3 * HOUR);
    await archived(PLAYER, T0 - 2 * HOUR, ["save.bin", "summary.json"], { partial: true });
    await archived(PLAYER, T0 - HOUR, ["save.bin", "summary.json"], { dataType: "mysekai_birthday_party", partial: true });
    const refresh = await archived(OTHER, T0 - 30 * MINUTE, ["save.bin", "site_5.png"], { dataType: "mysekai_birthday_party" });
    const latest = { playerId: PLAYER, createdAt: T0 - 3 * HOUR, receivedAt: T0 - 3 * HOUR, region: null, token: `token-${full}`, pngs: ["site_6.png", "site_5.png", "overview.png"] };
    const refreshed = { playerId: OTHER, createdAt: T0 - 30 * MINUTE, receivedAt: T0 - 30 * MINUTE, region: null, token: `token-${refresh}`, pngs: ["site_5.png"] };
    expect(await s.stores.pages.latestMaps()).toEqual([refreshed, latest]);
    expect(await s.stores.pages.mapsOfPlayer(PLAYER)).toEqual([latest]);
    expect(await s.stores.pages.mapsOfPlayer(OTHER)).toEqual([refreshed]);
    // The history keeps all three, the party's marked as a record; the other player's as a refresh.
    expect((await s.stores.pages.history(PLAYER, T0)).map((refresh) => refresh.party)).toEqual(["record", null, null]);
    expect((await s.stores.pages.history(OTHER, T0)).map((refresh) => refresh.party)).toEqual(["refresh"]);
  });

  test(`history: the player's archived refreshes of the last ${HISTORY_DAYS} days, newest first, digest decoded`, async () => {
    const since = T0 - HISTORY_DAYS * DAY;
    await archived(PLAYER, since - 1);
    const edge = await archived(PLAYER, since);
    const newest = await archived(PLAYER, T0 - HOUR);
    const sameTime = await archived(PLAYER, T0 - HOUR, MAPS, { region: "tw" });
    await archived(OTHER, T0 - 2 * HOUR);
    await save(PLAYER, T0 - 3 * HOUR); // not archived: nothing to open
    // Archived before digests were kept, its outputs model of an older version: no digest, the maps still listed.
    const older: SaveOutputs = { version: 1 } as unknown as SaveOutputs;
    const undigested = await save(PLAYER, T0 - 2 * DAY, { outputs: older });
    await archive(undigested, PLAYER, T0 - 2 * DAY, ["site_9.png"], null);

    const history = await s.stores.pages.history(PLAYER, T0);
    expect(history.map((refresh) => refresh.saveId)).toEqual([Math.max(newest, sameTime), Math.min(newest, sameTime), undigested, edge]);
    expect(history[0]).toEqual({
      saveId: sameTime,
      receivedAt: T0 - HOUR,
      region: "tw",
      token: `token-${sameTime}`,
      maps: [
        { file: "overview.png", label: "Overview" },
        { file: "site_5.png", label: "Site 5" },
        { file: "site_6.png", label: "Flower garden" },
      ],
      digest: digest(`find ${sameTime}`),
      party: null,
    });
    expect(history[2]).toEqual({ saveId: undigested, receivedAt: T0 - 2 * DAY, region: null, token: `token-${undigested}`, maps: [{ file: "site_9.png", label: "Site 9" }], digest: null, party: null });
    expect(await s.stores.pages.history(THIRD, T0)).toEqual([]);
  });

  test(`history: never more than ${HISTORY_ROWS} refreshes, the newest kept`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < HISTORY_ROWS + 10; i++) ids.push(await archived(PLAYER, T0 - i * 5 * HOUR));
    expect((await s.stores.pages.history(PLAYER, T0)).map((refresh) => refresh.saveId)).toEqual(ids.slice(0, HISTORY_ROWS));
  });

  test("status page: the resources the catalogue did not know, in the digests of the archives since a time, once each; older ones and digests without the list count none", async () => {
    const withUnknown = (unknown: string[]): RefreshDigest => ({ ...digest("x"), unknown });
    await archive(await save(PLAYER, T0 - 8 * DAY), PLAYER, T0 - 8 * DAY, MAPS, withUnknown(["mysekai_material:151"]));
    await archive(await save(PLAYER, T0 - 2 * HOUR), PLAYER, T0 - 2 * HOUR, MAPS, withUnknown(["mysekai_material:150", "mysekai_blueprint:3"]));
    await archive(await save(OTHER, T0 - HOUR), OTHER, T0 - HOUR, MAPS, withUnknown(["mysekai_material:150"]));
    await archived(THIRD, T0 - 30 * MINUTE);
    await archive(await save(THIRD, T0 - 20 * MINUTE), THIRD, T0 - 20 * MINUTE, MAPS, null);
    expect((await s.stores.pages.unknownResourcesSince(T0 - 7 * DAY)).sort()).toEqual(["mysekai_blueprint:3", "mysekai_material:150"]);
    expect(await s.stores.pages.unknownResourcesSince(T0 - 90 * MINUTE)).toEqual(["mysekai_material:150"]);
  });
});
