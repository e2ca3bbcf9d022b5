/**
 * One push per refresh, in-process: the drops' fingerprint, the decision (repeat or push) on a temp SQLite, and
 * two notify stages of one refresh running at once on one database: exactly one push.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../src/config/index.ts";
import { decidePush } from "../../src/db/deliveries/push-decision.ts";
import { storeSaveOnce } from "../../src/db/saves.ts";
import { archives, deliveries, jobs, saves } from "../../src/db/schema.ts";
import { generateOutputs } from "../../src/maps/index.ts";
import { claimJob } from "../../src/db/jobs/index.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { notifyStage } from "../../src/pipeline/stages/notify.ts";
import { dropsFingerprint } from "../../src/save/index.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";
import { openHarness, saveJob, type Harness } from "../helpers/pipeline-harness.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import type { PushCandidate } from "../../src/store/model/deliveries.ts";

const PLAYER = "7488393821744390161";
const OTHER = "1000000000000000001";
const WEBHOOK = [{ channel: "webhook", target: "default" }];
const CONFIGURED = new Set(["webhook"]);
let api: RecordingServer;
let h: Harness;

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
});
afterAll(() => api.stop());
beforeEach(() => {
  h = openHarness();
  api.reset();
});
afterEach(() => h.close());

const refresh = () => save([site(5, [material(12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]);

describe("the drops' fingerprint", () => {
  test("ignores harvest status, drop order and site order", () => {
    const base = refresh();
    const revisited = save([
      site(6, [material(33, 2, 2, 1, true)]),
      site(5, [drop("mysekai_music_record", 7, 1, 1), material(1, 3, 4, 1, true), material(12, 0, 0, 2)]),
    ]);
    expect(dropsFingerprint({ ...revisited, now: Date.UTC(2025, 2, 1, 5) })).toBe(dropsFingerprint(base));
  });

  test("changes with the site, the resource (type and id), the position or the quantity", () => {
    const base = dropsFingerprint(refresh());
    const variants = [
      save([site(7, [material(12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(13, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [drop("mysekai_item", 12, 0, 0, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(12, 0, 1, 2), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
      save([site(5, [material(12, 0, 0, 3), material(1, 3, 4), drop("mysekai_music_record", 7, 1, 1)]), site(6, [material(33, 2, 2)])]),
    ];
    expect(new Set([base, ...variants.map(dropsFingerprint)]).size).toBe(1 + variants.length);
  });
});

/** A stored save of `player` with the given fingerprint. */
function storedSave(fingerprint: string, player = PLAYER): number {
  const { saveId } = h.db.transaction((tx) =>
    storeSaveOnce(tx, { encrypted: crypto.getRandomValues(new Uint8Array(32)), playerId: player, source: "upload", receivedAt: Date.now() }),
  );
  h.db.update(saves).set({ dropsFingerprint: fingerprint }).where(eq(saves.id, saveId)).run();
  return saveId;
}
const candidate = (saveId: number, fingerprint: string, checkRepeat = true, playerId = PLAYER): PushCandidate => ({ saveId, playerId, dropsFingerprint: fingerprint, checkRepeat });
const decide = (saveId: number, fingerprint: string, opts: { checkRepeat?: boolean; targets?: typeof WEBHOOK; player?: string } = {}) =>
  decidePush(h.db, candidate(saveId, fingerprint, opts.checkRepeat ?? true, opts.player), opts.targets ?? WEBHOOK, CONFIGURED, Date.now());
const deliveryCount = (saveId: number) => h.db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).all().length;
const repeatOf = (saveId: number) => h.db.select({ r: saves.repeatOf }).from(saves).where(eq(saves.id, saveId)).get()!.r;

describe("repeat or push", () => {
  test("the first save pushes; the same drops again repeat it; new drops push; the old drops after them push again", () => {
    const a = storedSave("A");
    expect(decide(a, "A")).toEqual({ push: true });
    const again = storedSave("A");
    expect(decide(again, "A")).toEqual({ push: false, repeatOf: a });
    expect([deliveryCount(again), repeatOf(again)]).toEqual([0, a]);
    const b = storedSave("B");
    expect(decide(b, "B")).toEqual({ push: true });
    // The last push is now b: a's drops are new against it.
    const backToA = storedSave("A");
    expect(decide(backToA, "A")).toEqual({ push: true });
    expect([deliveryCount(backToA), repeatOf(backToA)]).toEqual([1, null]);
  });

  test("another player's push is not this player's", () => {
    expect(decide(storedSave("A", OTHER), "A", { player: OTHER })).toEqual({ push: true });
    expect(decide(storedSave("A"), "A")).toEqual({ push: true });
  });

  test("NOTIFY_REPEAT / reprocess --notify (no repeat check) pushes the same drops again", () => {
    const a = storedSave("A");
    decide(a, "A");
    const again = storedSave("A");
    expect(decide(again, "A", { checkRepeat: false })).toEqual({ push: true });
    expect(deliveryCount(again)).toBe(1);
  });

  test("a save routed to none, or only to channels not configured, is not a push: the next save with its drops pushes", () => {
    const none = storedSave("A");
    expect(decide(none, "A", { targets: [] })).toEqual({ push: true });
    const unconfigured = storedSave("A");
    expect(decide(unconfigured, "A", { targets: [{ channel: "telegram", target: "default" }] })).toEqual({ push: true });
    expect(h.db.select({ state: deliveries.state }).from(deliveries).where(eq(deliveries.saveId, unconfigured)).all()).toEqual([{ state: "skipped" }]);
    expect(decide(storedSave("A"), "A")).toEqual({ push: true });
  });

  test("a save already pushed stays pushed when its notify stage runs again", () => {
    const a = storedSave("A");
    const b = storedSave("A");
    decide(b, "A"); // b pushes first
    decide(a, "A"); // a repeats b
    expect(repeatOf(a)).toBe(b);
    expect(decide(b, "A")).toEqual({ push: true });
  });
});

/** Two archived saves of one refresh (other bytes, other harvest states), each job waiting at notify. */
async function twoSavesOfOneRefresh(): Promise<number[]> {
  const ids: number[] = [];
  for (const [n, harvested] of [[1, false], [2, true]] as const) {
    const drawn = save([site(5, [material(12, 0, 0, 2, harvested), drop("mysekai_music_record", 7, 1, 1)])]);
    const { files, outputs } = await generateOutputs(drawn, { playerId: PLAYER, capturedAt: new Date(0), locale: "zh-Hans", showHarvested: false, assetsDir: null });
    const saveId = storedSave(dropsFingerprint(drawn));
    const relPath = `by-id/${PLAYER}/20250301_00300${n}`;
    const dir = join(h.archiveRoot, relPath);
    mkdirSync(dir, { recursive: true });
    for (const file of files) writeFileSync(join(dir, file.name), file.bytes);
    writeFileSync(join(dir, ".save-id"), String(saveId));
    h.db.insert(archives).values({ saveId, playerId: PLAYER, relPath, token: String(n).repeat(32), files: files.map((f) => f.name), createdAt: 0 }).run();
    h.db.update(saves).set({ outputs }).where(eq(saves.id, saveId)).run();
    h.db.update(jobs).set({ stage: "notify", runAt: 0 }).where(eq(jobs.saveId, saveId)).run();
    ids.push(saveId);
  }
  return ids;
}

function deps(env: Record<string, string> = {}): PipelineDeps {
  const config = loadConfig({ DATA_DIR: h.deps.config.dataDir, WEBHOOK_URL: `${api.url}/hook`, NOTIFY_DEFAULT: "webhook", ...env });
  return { ...h.deps, config, routing: { players: new Map(), barkKeys: {} } };
}

describe("two notify stages of one refresh at once", () => {
  test("exactly one pushes; the other is archived with summary.json naming the save it repeats", async () => {
    const [first, second] = await twoSavesOfOneRefresh();
    const jobsNow = [saveJob(claimJob(h.db, Date.now(), 60_000)), saveJob(claimJob(h.db, Date.now(), 60_000))];
    const results = await Promise.all(jobsNow.map((job) => notifyStage(deps(), job, { now: Date.now() })));
    expect(api.requests.filter((r) => r.path === "/hook")).toHaveLength(1);
    expect(results.map((r) => r.kind === "advance" && r.next)).toEqual(["done", "done"]);
    expect(results[1]).toMatchObject({ note: `not pushed: same drops as save ${first}, the player's last push` });
    const archive = h.db.select().from(archives).where(eq(archives.saveId, second!)).get()!;
    const summary = JSON.parse(readFileSync(join(h.archiveRoot, archive.relPath, "summary.json"), "utf8"));
    expect(summary.repeatOf).toBe(first);
    expect(h.logs.some((line) => line.includes("[NOTIFY]") && line.includes("not pushed: repeat of the last push") && line.includes(`repeatOf=${first}`))).toBe(true);

    // A reprocess without --notify writes summary.json again and pushes nothing: the file keeps the decision.
    writeFileSync(join(h.archiveRoot, archive.relPath, "summary.json"), "{}");
    h.db.update(jobs).set({ stage: "notify", state: "pending", runAt: 0, notify: false }).where(eq(jobs.saveId, second!)).run();
    await notifyStage(deps(), saveJob(claimJob(h.db, Date.now(), 60_000)), { now: Date.now() });
    expect(JSON.parse(readFileSync(join(h.archiveRoot, archive.relPath, "summary.json"), "utf8")).repeatOf).toBe(first);
    expect(api.requests.filter((r) => r.path === "/hook")).toHaveLength(1);
  });

  test("with NOTIFY_REPEAT=1 both push", async () => {
    await twoSavesOfOneRefresh();
    const jobsNow = [saveJob(claimJob(h.db, Date.now(), 60_000)), saveJob(claimJob(h.db, Date.now(), 60_000))];
    await Promise.all(jobsNow.map((job) => notifyStage(deps({ NOTIFY_REPEAT: "1" }), job, { now: Date.now() })));
    expect(api.requests.filter((r) => r.path === "/hook")).toHaveLength(2);
  });
});
