/**
 * The notify stage on both stores (SQLite and a hub's PostgreSQL), in-process with a recording server for the
 * channels: the push built from the stored outputs model, and one push per refresh when two notify stages of one
 * refresh run at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { flushLog } from "../../src/log.ts";
import { generateOutputs } from "../../src/maps/index.ts";
import { notifyStage } from "../../src/pipeline/stages/notify.ts";
import { dropsFingerprint } from "../../src/save/index.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { notifyStageFixture, OK, PLAYER } from "../helpers/notify-stage-contract.ts";

let api: RecordingServer;
beforeAll(async () => void (api = await startRecordingServer({ defaultResponse: OK })));
afterAll(() => api.stop());

describeEachStore("notify stage", (s) => {
  let dir: string;
  let logs: string[];
  const { FAR, f, claim, deps } = notifyStageFixture(s, () => api, (fresh) => void ({ dir, logs } = fresh));

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
