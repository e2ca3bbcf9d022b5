/**
 * The notify stage under the lease fence: a runner whose lease expired and was taken over sends nothing; a
 * lease lost between two parts of a delivery stops it after the part answered. (The fence's own rules are in
 * deliveries.test.ts.)
 */
import { sqliteNudgeStore } from "../../src/db/owner/sqlite.ts";
import { sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { loadConfig } from "../../src/config/index.ts";
import { openDatabase, type Db } from "../../src/db/open.ts";
import { claimDeliveryAttempt } from "../../src/db/deliveries/rows.ts";
import { sqliteDeliveryStore } from "../../src/db/deliveries/sqlite.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { storeSaveOnce } from "../../src/db/saves.ts";
import { sqliteStageStore } from "../../src/db/stage-writes.ts";
import { archives, deliveries, jobs, saves } from "../../src/db/schema.ts";
import { describeSave } from "../../src/maps/index.ts";
import { claimJob } from "../../src/db/jobs/index.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { notifyStage } from "../../src/pipeline/stages/notify.ts";
import type { WorkerPool } from "../../src/pipeline/worker-pool.ts";
import { material, save, site } from "../helpers/maps-fixtures.ts";
import { saveJob } from "../helpers/pipeline-harness.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import type { ClaimedJob, SaveSubject } from "../../src/store/model/jobs.ts";
import { sqliteNotifyReads } from "../../src/db/read-models/sqlite-notify.ts";

const PLAYER = "7488393821744390161";
const LEASE_MS = 60_000;
let dir: string;
let db: Db;
let api: RecordingServer;

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { code: 200, message: "success" } } });
});
function removeDatabase(): void {
  if (!dir) return;
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
afterAll(async () => {
  await api.stop();
  removeDatabase();
});
beforeEach(() => {
  removeDatabase();
  dir = mkdtempSync(join(tmpdir(), "mysekai-fence-"));
  db = openDatabase(join(dir, "ingest.sqlite"));
  api.reset();
});

/** A saved, archived save whose job waits at notify; returns the save id. */
function archivedSave(): number {
  const { saveId } = db.transaction((tx) =>
    storeSaveOnce(tx, { encrypted: new Uint8Array([1, 2, 3]), playerId: PLAYER, source: "upload", receivedAt: Date.now() }),
  );
  const relPath = `by-id/${PLAYER}/20261123_061500`;
  mkdirSync(join(dir, "archive", relPath), { recursive: true });
  for (const name of ["site_5.png", "overview.png"]) writeFileSync(join(dir, "archive", relPath, name), new Uint8Array([0x89, 0x50]));
  db.insert(archives).values({ saveId, playerId: PLAYER, relPath, token: "t".repeat(32), files: ["overview.png", "site_5.png"], createdAt: 0 }).run();
  const outputs = describeSave(save([site(5, [material(12, 0, 0)])]), { playerId: PLAYER, capturedAt: new Date(0), locale: "en", showHarvested: false });
  db.update(saves).set({ outputs, dropsFingerprint: "drops" }).where(eq(saves.id, saveId)).run();
  db.update(jobs).set({ stage: "notify", runAt: 0 }).where(eq(jobs.saveId, saveId)).run();
  return saveId;
}

/** The first runner's lease expired and a second runner claimed the job: returns both claims. */
function takenOver(): { old: ClaimedJob<SaveSubject>; current: ClaimedJob<SaveSubject> } {
  const old = saveJob(claimJob(db, Date.now() - 10_000, 1000));
  const current = saveJob(claimJob(db, Date.now(), LEASE_MS));
  expect(current.id).toBe(old.id);
  expect(current.leaseId).not.toBe(old.leaseId);
  return { old, current };
}

function deps(route: "webhook" | "bark"): PipelineDeps {
  const config = loadConfig({
    DATA_DIR: dir,
    PUBLIC_BASE_URL: "http://maps.example",
    JOB_LEASE_MS: String(LEASE_MS),
    BARK_SERVER: `${api.url}/bark`,
    WEBHOOK_URL: `${api.url}/hook`,
    NOTIFY_TIMEOUT_MS: "5000",
  });
  const target = route === "bark" ? { channel: "bark" as const, target: "phone" } : { channel: "webhook" as const, target: "default" };
  return {
    config,
    workers: {} as WorkerPool,
    routing: { players: new Map([[PLAYER, [target]]]), barkKeys: { phone: "device-key" } },
    secrets: [],
    archive: diskArchiveStore(join(dir, "archive")),
    deliveries: sqliteDeliveryStore(db),
    jobs: sqliteJobStore(db),
    stageStore: sqliteStageStore(db),
    notifyReads: sqliteNotifyReads(db),
    watch: sqliteWatchStore(db),
    nudge: { nudges: sqliteNudgeStore(db), links: { linkedPlayer: async () => null }, routing: { players: new Map(), barkKeys: {} }, config, secrets: [] },
  };
}

const deliveryRow = (saveId: number) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).get()!;

describe("the notify stage under a lost lease", () => {
  test("the old holder sends nothing; the current holder sends once", async () => {
    const saveId = archivedSave();
    const { old, current } = takenOver();
    const stageDeps = deps("webhook");
    const stale = await notifyStage(stageDeps, old, { now: Date.now() });
    expect(api.requests).toHaveLength(0);
    expect(stale.kind).toBe("later");
    expect(deliveryRow(saveId)).toMatchObject({ state: "pending", attempts: 0 });

    const fresh = await notifyStage(stageDeps, current, { now: Date.now() });
    expect(fresh).toMatchObject({ kind: "advance", next: "done" });
    expect(api.requestsTo("/hook")).toHaveLength(1);
    expect(deliveryRow(saveId)).toMatchObject({ state: "sent", attempts: 1 });
  });

  test("a takeover mid-delivery: the old holder stops after the part in flight, the new one sends only the rest", async () => {
    const saveId = archivedSave();
    const old = saveJob(claimJob(db, Date.now(), LEASE_MS));
    const takeover: { job?: ClaimedJob | null } = {};
    // While the first Bark push is in flight, the lease expires and another runner claims the job.
    api.respond("/bark/push", () => {
      takeover.job = claimJob(db, Date.now() + 2 * LEASE_MS, LEASE_MS);
      return { status: 200, body: { code: 200, message: "success" } };
    });
    const stageDeps = deps("bark");
    await notifyStage(stageDeps, old, { now: Date.now() });
    expect(api.requestsTo("/bark/push")).toHaveLength(1);
    expect(deliveryRow(saveId)).toMatchObject({ state: "pending", partsSent: 1, attempts: 1 });

    const current = saveJob(takeover.job ?? null);
    expect(current.leaseId).not.toBe(old.leaseId);
    expect(await notifyStage(stageDeps, current, { now: Date.now() })).toMatchObject({ kind: "advance", next: "done" });
    const bodies = api.requestsTo("/bark/push").map((request) => (request.json as { body: string }).body);
    // Summary, then one push per map, each exactly once.
    expect(bodies.slice(1)).toEqual(["site_5.png", "overview.png"]);
    expect(deliveryRow(saveId)).toMatchObject({ state: "sent", partsSent: 3, attempts: 2 });
  });

  test("a failure answered to the old holder does not overwrite the attempt the new holder claimed", async () => {
    const saveId = archivedSave();
    const old = saveJob(claimJob(db, Date.now(), LEASE_MS));
    api.respond("/hook", () => {
      const current = claimJob(db, Date.now() + 2 * LEASE_MS, LEASE_MS)!;
      const row = deliveryRow(saveId);
      expect(claimDeliveryAttempt(db, { jobId: current.id, leaseId: current.leaseId }, { id: row.id, seenAttempts: row.attempts }, Date.now(), LEASE_MS)).toBe("claimed");
      return { status: 500, body: "busy" };
    });
    await notifyStage(deps("webhook"), old, { now: Date.now() });
    expect(deliveryRow(saveId)).toMatchObject({ state: "pending", attempts: 2, lastError: null });
  });
});

describe("the notify stage with nothing due", () => {
  test("a retry not due yet: the stage sends nothing and comes back at its time", async () => {
    const saveId = archivedSave();
    const job = saveJob(claimJob(db, Date.now(), LEASE_MS));
    api.respond("/hook", { status: 500, body: "busy" });
    expect(await notifyStage(deps("webhook"), job, { now: Date.now() })).toMatchObject({ kind: "later" });
    const retryAt = deliveryRow(saveId).nextAttemptAt;
    expect(retryAt).toBeGreaterThan(Date.now());
    // Run again before it: the tally comes from the rows read for the due list, and still names the retry.
    expect(await notifyStage(deps("webhook"), job, { now: Date.now() })).toMatchObject({ kind: "later", runAt: retryAt, note: "sent=0 failed=0 skipped=0 pending=1" });
    expect(api.requestsTo("/hook")).toHaveLength(1);
  });
});
