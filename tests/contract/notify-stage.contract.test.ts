/**
 * The notify stage on both stores (SQLite and a hub's PostgreSQL), in-process with a recording server for the
 * channels: the lease fence (a runner whose lease was taken over sends nothing; a takeover between two parts of a
 * delivery stops the old holder after the part answered), a retry not yet due, and one push per refresh when two
 * notify stages of one refresh run at once. The fence's own rules are in delivery-store.contract.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unknownResourceLog } from "../../src/pipeline/unknown-resources.ts";
import { loadConfig } from "../../src/config/index.ts";
import { flushLog } from "../../src/log.ts";
import { describeSave, generateOutputs } from "../../src/maps/index.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { notifyStage } from "../../src/pipeline/stages/notify.ts";
import type { WorkerPool } from "../../src/pipeline/worker-pool.ts";
import { dropsFingerprint } from "../../src/save/index.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { holderOf, type ClaimedJob } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";
import { saveJob } from "../helpers/pipeline-harness.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";

const PLAYER = "7488393821744390161";
const LEASE_MS = 60_000;
const OK = { status: 200, body: { code: 200, message: "success" } };
let api: RecordingServer;
beforeAll(async () => void (api = await startRecordingServer({ defaultResponse: OK })));
afterAll(() => api.stop());

/** A save as the generate and archive stages leave it. */
interface ArchivedSave {
  outputs: SaveOutputs;
  dropsFingerprint: string;
  relPath: string;
  token: string;
  files: string[];
}

describeEachStore("notify stage", (s) => {
  let dir: string;
  let logs: string[];
  let spies: ReturnType<typeof spyOn>[];
  beforeEach(() => {
    dir = s.config.dataDir;
    api.reset();
    logs = [];
    const capture = (...parts: unknown[]) => void logs.push(parts.join(" "));
    spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "warn").mockImplementation(capture)];
  });
  afterEach(() => {
    flushLog();
    for (const spy of spies) spy.mockRestore();
  });
  const FAR = Number.MAX_SAFE_INTEGER;
  const f = {
    /**
     * PLAYER's save drawn and archived through the stage store, its job waiting at notify (due from `dueFrom`: from 0,
     * or never while a test draws another, since a draw claims the due job).
     */
    archivedSave: async (save: ArchivedSave, dueFrom = 0) => {
      const saveId = await s.rows.save({ playerId: PLAYER });
      const archive = { relPath: save.relPath, token: save.token, files: save.files };
      await s.rows.drawn(saveId, { stage: "notify", runAt: dueFrom, outputs: save.outputs, drops: save.dropsFingerprint, archive });
      return saveId;
    },
    dueNow: async (saveId: number) => s.jobRows.set((await s.jobRows.jobOfSave(saveId)).id, { runAt: 0 }),
    /** The save's job waits at notify again (a reprocess of its last stage), with or without its push. */
    backToNotify: async (saveId: number, notify: boolean) => s.jobRows.set((await s.jobRows.jobOfSave(saveId)).id, { stage: "notify", state: "pending", runAt: 0, notify, leaseId: null }),
    /** The save's stored outputs model replaced (null: none stored, as an older version left it). */
    setOutputs: (saveId: number, outputs: SaveOutputs | null) => s.stored.setOutputs(saveId, outputs),
    /** The save's deliveries removed behind the stores' back, so its next notify sends to every target again. */
    clearDeliveries: (saveId: number) => s.stored.dropDeliveriesOf(saveId),
    deliveries: (saveId: number) => s.stores.deliveries.ofSave(saveId),
    archiveOf: async (saveId: number) => ({ relPath: (await s.stores.stageStore.saveToDraw(saveId))!.archivePath! }),
  };

  const claim = async (now: number, leaseMs = LEASE_MS) => saveJob(await s.stores.jobs.claim(now, leaseMs, false));
  const deliveryOf = async (saveId: number) => (await f.deliveries(saveId))[0]!;
  function deps(route: "webhook" | "bark" | "bark+webhook", env: Record<string, string> = {}): PipelineDeps {
    const config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: "http://maps.example", JOB_LEASE_MS: String(LEASE_MS), BARK_SERVER: `${api.url}/bark`, WEBHOOK_URL: `${api.url}/hook`, NOTIFY_TIMEOUT_MS: "5000", ...env });
    const bark = { channel: "bark" as const, target: "phone" };
    const webhook = { channel: "webhook" as const, target: "default" };
    const targets = route === "bark" ? [bark] : route === "webhook" ? [webhook] : [bark, webhook];
    const { deliveries, jobs, stageStore, notifyReads, watch, nudges } = s.stores;
    return {
      deliveries,
      jobs,
      stageStore,
      notifyReads,
      watch,
      config,
      links: { linkedPlayer: async () => null },
      workers: {} as WorkerPool,
      routing: { players: new Map([[PLAYER, targets]]), barkKeys: { phone: "device-key" } },
      secrets: [],
      archive: s.archive,
      nudge: { nudges, links: { linkedPlayer: async () => null }, routing: { players: new Map(), barkKeys: {} }, config, secrets: [] },
      logUnknownResources: unknownResourceLog(),
    };
  }

  /** A save archived with two small maps, its job waiting at notify. */
  async function archivedSave(): Promise<number> {
    const relPath = `by-id/${PLAYER}/20261123_061500`;
    mkdirSync(join(dir, "archive", relPath), { recursive: true });
    for (const name of ["site_5.png", "overview.png"]) writeFileSync(join(dir, "archive", relPath, name), new Uint8Array([0x89, 0x50]));
    const outputs = describeSave(save([site(5, [material(12, 0, 0)])]), { playerId: PLAYER, capturedAt: new Date(0), locale: "en", showHarvested: false });
    return f.archivedSave({ outputs, dropsFingerprint: "drops", relPath, token: "t".repeat(32), files: ["overview.png", "site_5.png"] });
  }

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

  describe("the push built from the stored outputs model", () => {
    /** A save drawn and archived as the generate and archive stages leave it (sites out of id order). */
    async function drawnSave() {
      const drawn = save([site(8, [material(24, 0, 0)]), site(5, [material(12, 0, 0), drop("mysekai_music_record", 3, 2, 2)])]);
      const { files, outputs } = await generateOutputs(drawn, { playerId: PLAYER, capturedAt: new Date(0), locale: "zh-Hans", showHarvested: false, assetsDir: null });
      const relPath = `by-id/${PLAYER}/20250301_003000`;
      const folder = join(dir, "archive", relPath);
      mkdirSync(folder, { recursive: true });
      for (const file of files) writeFileSync(join(folder, file.name), file.bytes);
      const saveId = await f.archivedSave({ outputs, dropsFingerprint: "drops", relPath, token: "t".repeat(32), files: files.map((file) => file.name).sort() });
      return { saveId, outputs, folder };
    }

    test("the notify stage reads no archive text: without rare_resources.txt and summary.json the push is unchanged", async () => {
      const { saveId, folder } = await drawnSave();
      const pushed = async () => {
        api.reset();
        await f.clearDeliveries(saveId);
        await f.backToNotify(saveId, true);
        expect(await notifyStage(deps("bark+webhook"), await claim(Date.now()), { now: Date.now() })).toMatchObject({ kind: "advance", next: "done" });
        return api.requests.map((request) => [request.path, request.json]);
      };
      const withText = await pushed();
      expect(withText.length).toBe(2); // Bark: one notification a refresh; the webhook
      expect(withText.map(([path]) => path)).toEqual(["/bark/push", "/hook"]);
      rmSync(join(folder, "rare_resources.txt"));
      rmSync(join(folder, "summary.json"));
      expect(await pushed()).toEqual(withText);
    });

    test("a save without a stored model is generated again; a partial refresh pushes nothing", async () => {
      const { saveId, outputs } = await drawnSave();
      await f.setOutputs(saveId, null);
      const job = await claim(Date.now());
      expect(await notifyStage(deps("bark+webhook"), job, { now: Date.now() })).toMatchObject({ kind: "advance", next: "generate" });
      await f.setOutputs(saveId, { ...outputs, partial: true, sites: [] });
      expect(await notifyStage(deps("bark+webhook"), job, { now: Date.now() })).toMatchObject({ kind: "advance", next: "done", note: "no maps to push (partial refresh)" });
      expect(api.requests).toHaveLength(0);
    });
  });

  describe("two notify stages of one refresh at once", () => {
    /** Two archived saves of one refresh (other bytes, other harvest states), each job waiting at notify. */
    async function twoSavesOfOneRefresh(): Promise<number[]> {
      const ids: number[] = [];
      for (const [n, harvested] of [[1, false], [2, true]] as const) {
        const drawn = save([site(5, [material(12, 0, 0, 2, harvested), drop("mysekai_music_record", 7, 1, 1)])]);
        const { files, outputs } = await generateOutputs(drawn, { playerId: PLAYER, capturedAt: new Date(0), locale: "zh-Hans", showHarvested: false, assetsDir: null });
        const relPath = `by-id/${PLAYER}/20250301_00300${n}`;
        const folder = join(dir, "archive", relPath);
        mkdirSync(folder, { recursive: true });
        for (const file of files) writeFileSync(join(folder, file.name), file.bytes);
        const saveId = await f.archivedSave({ outputs, dropsFingerprint: dropsFingerprint(drawn), relPath, token: String(n).repeat(32), files: files.map((file) => file.name) }, FAR);
        writeFileSync(join(folder, ".save-id"), String(saveId));
        ids.push(saveId);
      }
      for (const id of ids) await f.dueNow(id);
      return ids;
    }
    const summaryOf = async (saveId: number) => JSON.parse(readFileSync(join(dir, "archive", (await f.archiveOf(saveId))!.relPath, "summary.json"), "utf8"));

    test("exactly one pushes; the other is archived with summary.json naming the save it repeats", async () => {
      const saves = await twoSavesOfOneRefresh();
      const running = [await claim(Date.now()), await claim(Date.now())];
      const results = await Promise.all(running.map((job) => notifyStage(deps("webhook"), job, { now: Date.now() })));
      expect(api.requestsTo("/hook")).toHaveLength(1);
      expect(results.map((r) => r.kind === "advance" && r.next)).toEqual(["done", "done"]);
      // Which of the two wins is the race's (the claims go oldest first: result i is saves[i]'s stage).
      const repeat = results.findIndex((r) => r.kind === "advance" && r.note?.startsWith("not pushed"));
      expect(repeat).toBeOneOf([0, 1]);
      const [pushed, repeated] = [saves[1 - repeat]!, saves[repeat]!];
      expect(results[repeat]).toMatchObject({ note: `not pushed: same drops as save ${pushed}, the player's last push` });
      expect((await summaryOf(repeated)).repeatOf).toBe(pushed);
      flushLog();
      expect(logs.some((line) => line.includes("[NOTIFY]") && line.includes("not pushed: repeat of the last push") && line.includes(`repeatOf=${pushed}`))).toBe(true);

      // A reprocess without --notify writes summary.json again and pushes nothing: the file keeps the decision.
      writeFileSync(join(dir, "archive", (await f.archiveOf(repeated))!.relPath, "summary.json"), "{}");
      await f.backToNotify(repeated, false);
      await notifyStage(deps("webhook"), await claim(Date.now()), { now: Date.now() });
      expect((await summaryOf(repeated)).repeatOf).toBe(pushed);
      expect(api.requestsTo("/hook")).toHaveLength(1);
    });

    test("with NOTIFY_REPEAT=1 both push", async () => {
      await twoSavesOfOneRefresh();
      const running = [await claim(Date.now()), await claim(Date.now())];
      await Promise.all(running.map((job) => notifyStage(deps("webhook", { NOTIFY_REPEAT: "1" }), job, { now: Date.now() })));
      expect(api.requestsTo("/hook")).toHaveLength(2);
    });
  });
});
