/**
 * The read models' contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. The pages'
 * reads (status page, player pages, /healthz), the data API's and the notify stage's, over rows inserted through
 * each dialect's schema: the answers are equal to the field, 19-digit player ids exact as strings, JSON decoded.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SAVE_JSON_FILE } from "../../src/archive/save-json-file.ts";
import { HISTORY_DAYS, HISTORY_ROWS } from "../../src/store/model/pages.ts";
import type { RefreshDigest } from "../../src/maps/refresh-digest.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { sha256Hex } from "../../src/sha256.ts";
import type { Delivery } from "../../src/store/model/deliveries.ts";
import type { ArchivesRow } from "../../src/store/model/archives.ts";
import type { SaveRow } from "../../src/store/model/saves.ts";
import type { ReportRow } from "../../src/store/model/uploads.ts";
import type { JobRow } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Past 2^53: a number would round them. */
const PLAYER = "7485938820123456789";
const OTHER = "9007199254740993123";
const THIRD = "1000000000000000001";

const digest = (name: string): RefreshDigest => ({ partial: false, rare: [{ name, tier: "rare", total: 2 }], newSongs: [], more: 0, sites: [{ siteId: 6, name: "Flower garden" }] });
const MAPS = ["save.bin", "site_6.png", "site_5.png", "overview.png"];
let saves = 0;
/** The data API's region for a save that names none (DEFAULT_REGION's default). */
const DEFAULT_REGION = "jp";

/** Rows as the stores leave them, every field as a test sets it: what each read answers is the subject here. */
interface Inserts {
  save(values: Partial<SaveRow>): Promise<number>;
  archive(values: Partial<ArchivesRow> & { saveId: number }): Promise<void>;
  job(values: Partial<JobRow>): Promise<number>;
  delivery(values: Partial<Delivery>): Promise<number>;
  report(values: Partial<ReportRow>): Promise<number>;
}

describeEachStore("read models", (s) => {
  const insert: Inserts = {
    save: (values) => s.sql.insert("saves", values),
    archive: async (values) => void (await s.sql.insert("archives", values)),
    job: (values) => s.sql.insert("jobs", values),
    delivery: (values) => s.sql.insert("deliveries", values),
    report: (values) => s.sql.insert("reports", values),
  };

  const save = (playerId: string, receivedAt: number, extra: Partial<Parameters<Inserts["save"]>[0]> = {}) => {
    const encrypted = new TextEncoder().encode(`save ${++saves} of ${playerId} at ${receivedAt}`);
    return insert.save({ sha256: sha256Hex(encrypted), playerId, source: "upload", encrypted, size: encrypted.length, receivedAt, ...extra });
  };
  const archive = async (saveId: number, playerId: string, createdAt: number, files = MAPS, refresh: RefreshDigest | null = digest(`find ${saveId}`)) => {
    await insert.archive({ saveId, playerId, relPath: `by-id/${playerId}/${saveId}`, token: `token-${saveId}`, files, digest: refresh, createdAt });
  };
  const archived = async (playerId: string, at: number, files = MAPS, extra = {}) => {
    const id = await save(playerId, at, extra);
    await archive(id, playerId, at, files);
    return id;
  };

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

  test("notify: the save without its bytes and its archive, JSON decoded; none without an archive", async () => {
    const outputs = { version: 2, partial: false } as unknown as SaveOutputs;
    const id = await archived(PLAYER, T0, MAPS, { outputs, dropsFingerprint: "f".repeat(64), region: "en" });
    const subject = await s.stores.notifyReads.subject(id);
    expect(subject?.save).toEqual({
      id,
      sha256: expect.any(String),
      playerId: PLAYER,
      source: "upload",
      size: expect.any(Number),
      receivedAt: T0,
      outputs,
      dropsFingerprint: "f".repeat(64),
      repeatOf: null,
      region: "en",
      dataType: "mysekai",
      partial: false,
    });
    expect(subject?.archive).toEqual({ saveId: id, playerId: PLAYER, relPath: `by-id/${PLAYER}/${id}`, token: `token-${id}`, files: MAPS, digest: digest(`find ${id}`), createdAt: T0 });
    expect(await s.stores.notifyReads.subject(await save(PLAYER, T0 + 1))).toBeNull();
    expect(await s.stores.notifyReads.subject(9999)).toBeNull();
  });
});
