/**
 * The notify stage contract suites' saves, claims and deps (tests/contract/notify-stage.*.contract.test.ts), on the
 * store under test, its channels on the suite's recording server (`api`): the data folder and a capture of the log
 * fresh for each test, handed to the suite by `onEach`.
 */
import { afterEach, beforeEach, spyOn } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unknownResourceLog } from "../../src/pipeline/unknown-resources.ts";
import { loadConfig } from "../../src/config/index.ts";
import { flushLog } from "../../src/log.ts";
import { describeSave } from "../../src/maps/index.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import type { WorkerPool } from "../../src/pipeline/worker-pool.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import type { StoreUnderTest } from "./contract-stores.ts";
import { material, save, site } from "./maps-fixtures.ts";
import { LEASE_MS, saveJob } from "./pipeline-harness.ts";
import type { RecordingServer } from "./recording-server.ts";

export { LEASE_MS };

export const PLAYER = "7488393821744390161";
export const OK = { status: 200, body: { code: 200, message: "success" } };

/** A save as the generate and archive stages leave it. */
interface ArchivedSave {
  outputs: SaveOutputs;
  dropsFingerprint: string;
  relPath: string;
  token: string;
  files: string[];
}

export function notifyStageFixture(s: StoreUnderTest, api: () => RecordingServer, onEach: (fresh: { dir: string; logs: string[] }) => void = () => {}) {
  let dir: string;
  let logs: string[];
  let spies: ReturnType<typeof spyOn>[];
  beforeEach(() => {
    dir = s.config.dataDir;
    api().reset();
    logs = [];
    const capture = (...parts: unknown[]) => void logs.push(parts.join(" "));
    spies = [spyOn(console, "log").mockImplementation(capture), spyOn(console, "warn").mockImplementation(capture)];
    onEach({ dir, logs });
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
    const config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: "http://maps.example", JOB_LEASE_MS: String(LEASE_MS), BARK_SERVER: `${api().url}/bark`, WEBHOOK_URL: `${api().url}/hook`, NOTIFY_TIMEOUT_MS: "5000", ...env });
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
  return { FAR, f, claim, deliveryOf, deps, archivedSave };
}
