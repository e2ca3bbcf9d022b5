/**
 * The push is built from the save's stored outputs model: its text is the model's rare text, its summary the
 * model's summary.json, its maps in the model's site order. That the notify stage reads no archive text, and what
 * it does without a stored model or for a partial refresh, runs on both stores in notify-stage.*.contract.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../src/config/index.ts";
import { storeSaveOnce } from "../../src/db/saves/sqlite.ts";
import { archives, jobs, saves } from "../../src/db/schema.ts";
import { formatRareText, generateOutputs, summaryJson, type SaveOutputs } from "../../src/maps/index.ts";
import { fullText } from "../../src/notify/message.ts";
import { pushMessage } from "../../src/pipeline/push-message.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";
import { openHarness, type Harness } from "../helpers/pipeline-harness.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";

const PLAYER = "7488393821744390161";
const REL_PATH = `by-id/${PLAYER}/20250301_003000`;
let api: RecordingServer;
let h: Harness;
let archiveDir: string;

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { code: 200, message: "success" } } });
});
afterAll(() => api.stop());
beforeEach(() => {
  h = openHarness();
  archiveDir = join(h.archiveRoot, REL_PATH);
  api.reset();
});
afterEach(() => h.close());

/** A save drawn and archived as the generate and archive stages leave it, its job waiting at notify. */
async function archivedSave(): Promise<{ saveId: number; outputs: SaveOutputs }> {
  const { saveId } = h.db.transaction((tx) =>
    storeSaveOnce(tx, { encrypted: new Uint8Array([1, 2, 3]), playerId: PLAYER, source: "upload", receivedAt: Date.UTC(2025, 2, 1, 0, 30) }),
  );
  // Sites out of id order in the save: the maps still go out in site order.
  const drawn = save([site(8, [material(24, 0, 0)]), site(5, [material(12, 0, 0), drop("mysekai_music_record", 3, 2, 2)])]);
  const { files, outputs } = await generateOutputs(drawn, { playerId: PLAYER, capturedAt: new Date(0), locale: "zh-Hans", showHarvested: false, assetsDir: null });
  mkdirSync(archiveDir, { recursive: true });
  for (const file of files) writeFileSync(join(archiveDir, file.name), file.bytes);
  const names = files.map((file) => file.name).sort();
  h.db.insert(archives).values({ saveId, playerId: PLAYER, relPath: REL_PATH, token: "t".repeat(32), files: names, createdAt: 0 }).run();
  h.db.update(saves).set({ outputs, dropsFingerprint: "drops" }).where(eq(saves.id, saveId)).run();
  h.db.update(jobs).set({ stage: "notify", runAt: 0 }).where(eq(jobs.saveId, saveId)).run();
  return { saveId, outputs };
}

/** Bark and the webhook for our player, images served under PUBLIC_BASE_URL. */
function deps(): PipelineDeps {
  const config = loadConfig({ DATA_DIR: h.deps.config.dataDir, PUBLIC_BASE_URL: "http://maps.example", BARK_SERVER: `${api.url}/bark`, WEBHOOK_URL: `${api.url}/hook` });
  const targets = [
    { channel: "bark" as const, target: "phone" },
    { channel: "webhook" as const, target: "default" },
  ];
  return { ...h.deps, config, routing: { players: new Map([[PLAYER, targets]]), barkKeys: { phone: "device-key" } } };
}

const rowsOf = (saveId: number) => ({
  save: h.db.select().from(saves).where(eq(saves.id, saveId)).get()!,
  archive: h.db.select().from(archives).where(eq(archives.saveId, saveId)).get()!,
});

describe("the push message", () => {
  test("its text is the model's rare text, its summary the model's summary.json, its maps in site order with the overview last", async () => {
    const { saveId, outputs } = await archivedSave();
    const { save: row, archive } = rowsOf(saveId);
    const message = await pushMessage(deps(), row, archive, row.outputs!);
    expect(fullText(message)).toBe(formatRareText(outputs).trimEnd());
    expect(message.title).toBe(formatRareText(outputs).split("\n")[0]!);
    expect(message.summary).toEqual(summaryJson(outputs));
    expect(JSON.parse(readFileSync(join(archiveDir, "summary.json"), "utf8"))).toEqual(message.summary);
    expect(message.images.map((image) => [image.name, image.url])).toEqual([
      ["site_5.png", `http://maps.example/maps/${"t".repeat(32)}/site_5.png`],
      ["site_8.png", `http://maps.example/maps/${"t".repeat(32)}/site_8.png`],
      ["overview.png", `http://maps.example/maps/${"t".repeat(32)}/overview.png`],
    ]);
    expect(message.images[0]!.png).toEqual(new Uint8Array(readFileSync(join(archiveDir, "site_5.png"))));
  });
});
