/**
 * A save first seen without a player id takes the real id of a later arrival with the same bytes: drawn again,
 * archived under the player (the old folder gone, the token kept), pushed to the player's routes once each.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveFilesIn, archiveFolders, deploymentHooks, deployments, readArchiveFile, sqliteHalfOnly } from "../helpers/deployments.ts";
import { reads, type ArchiveRow } from "../helpers/store-reads.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, saveUrl, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";
import { SMALL_MAPS } from "../helpers/small-maps.ts";

setDefaultTimeout(60_000);
const DISCORD = "/discord/webhooks/1/discord-secret";
const WEBHOOK = "/hook/default-route";
const { pair, env: keyEnv } = testKeys();

let api: RecordingServer;
beforeAll(async () => {
  api = await startRecordingServer();
});
afterAll(async () => {
  await api.stop();
});

for (const deployment of deployments("adopt")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    const { settings, servers } = deploymentHooks(deployment);
    /**
     * The adoption's store rules (a queued save, a running job flagged and sent back by its holder, a target routed
     * no more skipped) run on both stores in ingest-store, stage-store and delivery-store.*.contract.test.ts; the hub
     * keeps the archive moved in its bucket, the token kept and the pushes, end to end.
     */
    const notOnHub = sqliteHalfOnly(deployment);

    /** The default route is the webhook; our player is routed to Discord and the webhook unless `route` says otherwise. */
    async function start(options: { keys: boolean; dataDir?: string; route?: string[]; backoff?: string }): Promise<RunningServer> {
      const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "mysekai-adopt-"));
      mkdirSync(join(dataDir, "config"), { recursive: true });
      writeFileSync(join(dataDir, "config", "push_map.json"), JSON.stringify({ [PLAYER_ID]: options.route ?? ["discord", "webhook"] }));
      const server = await startServer({
        dataDir,
        env: {
          ...SMALL_MAPS,
          ...settings,
          ...(options.keys ? keyEnv : {}),
          JOB_BACKOFF_MS: options.backoff ?? "100,100",
          NOTIFY_DEFAULT: "webhook",
          DISCORD_WEBHOOK_URL: `${api.url}${DISCORD}`,
          WEBHOOK_URL: `${api.url}${WEBHOOK}`,
        },
      });
      servers.push(server);
      return server;
    }

    const jobOf = (server: RunningServer, saveId: number) => reads(server, deployment).job(saveId);
    const playerOf = async (server: RunningServer, saveId: number) => (await reads(server, deployment).saveRow(saveId))!.player_id;
    const rerunOf = async (server: RunningServer, saveId: number) => Number((await jobOf(server, saveId))!.rerun);

    /** An upload without X-Original-Url: the save is held as `unknown`. */
    async function uploadAnonymous(server: RunningServer, body: Uint8Array, uploadId: string): Promise<number> {
      const response = await fetch(`${server.url}/uploadSaveData`, {
        method: "POST",
        body: body as Uint8Array<ArrayBuffer>,
        headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1" },
      });
      expect(response.status).toBe(200);
      return (await reads(server, deployment).saveOfUpload(uploadId))!;
    }

    function reportNamingPlayer(server: RunningServer, body: Uint8Array): Promise<Response> {
      const content = { mimeType: "application/octet-stream", size: body.length, text: Buffer.from(body).toString("base64"), encoding: "base64" };
      const har = { log: { entries: [{ request: { method: "GET", url: saveUrl(), headers: [] }, response: { status: 200, content } }] } };
      return fetch(`${server.url}/capture/report`, { method: "POST", body: JSON.stringify(har), headers: { "content-type": "application/json" } });
    }

    const archivesOf = async (server: RunningServer, saveId: number) => (await reads(server, deployment).archives()).filter((archive) => archive.save_id === saveId);
    const deliveriesOf = async (server: RunningServer, saveId: number) => (await reads(server, deployment).pushes(saveId)).map((row) => `${row.channel}:${row.state}`);
    /** Folders under by-id/unknown that are not in `before` (a hub's bucket holds the file's earlier tests' too). */
    const unknownFolders = async (server: RunningServer, before: string[]) =>
      (await archiveFolders(deployment, server, before)).filter((folder) => folder.startsWith("by-id/unknown/"));

    /** Waits until the save is archived under the player and its job is done again. */
    async function archivedUnderPlayer(server: RunningServer, saveId: number): Promise<ArchiveRow> {
      await eventually(
        async () => (await archivesOf(server, saveId))[0]?.player_id === PLAYER_ID && (await jobOf(server, saveId))?.state === "done",
        30_000,
        "archive under the player and job done",
      );
      expect(await jobOf(server, saveId)).toMatchObject({ stage: "done", state: "done", last_error: null });
      const rows = await archivesOf(server, saveId);
      expect(rows).toHaveLength(1);
      // _N when another save of the player holds the second's folder (a hub's earlier test may, within the same second).
      expect(rows[0]!.rel_path).toMatch(new RegExp(`^by-id/${PLAYER_ID}/\\d{8}_\\d{6}(_\\d+)?$`));
      // Drawn again with the player id.
      expect(JSON.parse((await readArchiveFile(settings, server, rows[0]!.rel_path, "summary.json")).toString("utf8")).playerId).toBe(PLAYER_ID);
      expect(await playerOf(server, saveId)).toBe(PLAYER_ID);
      return rows[0]!;
    }

    describe("a save held as unknown adopts the real player id", () => {
      test("after it was archived and pushed: the archive moves, the player's new route gets the push, the old target nothing more", async () => {
        api.reset();
        const server = await start({ keys: true });
        const save = encryptedSave(pair, { sites: [5] });
        const saveId = await uploadAnonymous(server, save, "anon-done");
        await eventually(async () => (await jobOf(server, saveId))?.state === "done", 30_000, "unknown save done");
        const first = await archivesOf(server, saveId);
        expect(first.map((row) => row.player_id)).toEqual(["unknown"]);
        const oldDir = first[0]!.rel_path;
        expect(await archiveFilesIn(deployment, server, oldDir)).toContain("site_5.png");
        expect(api.requestsTo(WEBHOOK)).toHaveLength(1);
        expect(api.requestsTo(DISCORD)).toHaveLength(0);

        expect(await (await reportNamingPlayer(server, save)).text()).toBe("ok");
        const moved = await archivedUnderPlayer(server, saveId);
        expect(moved.token).toBe(first[0]!.token);
        await eventually(async () => !(await archiveFolders(deployment, server)).includes(oldDir), 5000, "old folder removed");
        expect((await reads(server, deployment).reports()).filter((report) => report.save_id === saveId).map(({ outcome, save_id }) => ({ outcome, save_id }))).toEqual([{ outcome: "duplicate", save_id: saveId }]);

        await eventually(() => api.requestsTo(DISCORD).length === 1, 10_000, "push to the player's route");
        expect(api.requestsTo(DISCORD)[0]!.text).toContain(PLAYER_ID);
        expect(api.requestsTo(WEBHOOK)).toHaveLength(1);
        expect(await deliveriesOf(server, saveId)).toEqual(["discord:sent", "webhook:sent"]);
        // Image URLs already pushed keep working: the token names the moved folder.
        expect((await fetch(`${server.url}/maps/${moved.token}/site_5.png`)).status).toBe(200);
        await server.waitForOutput(/\[JOB\] archive moved save=\d+ player=\d+ from=by-id\/unknown\/\S+ oldFolderRemoved=true/);
      });

      notOnHub("while it is still queued: exactly one archive, under the player, pushed to the player's routes", async () => {
        api.reset();
        // Without keys the job waits at generate: the save is queued, never drawn as unknown.
        const waiting = await start({ keys: false });
        const foldersBefore = await archiveFolders(deployment, waiting);
        const savesBefore = await reads(waiting, deployment).saveCount();
        const save = encryptedSave(pair, { sites: [5] });
        const saveId = await uploadAnonymous(waiting, save, "anon-queued");
        await eventually(async () => (await jobOf(waiting, saveId))?.state === "waiting_for_key", 10_000, "waiting for key");
        expect((await uploadSave(waiting.url, save, "named-queued")).status).toBe(200);
        expect(await playerOf(waiting, saveId)).toBe(PLAYER_ID);
        await waiting.stop();

        const server = await start({ keys: true, dataDir: waiting.dataDir });
        await archivedUnderPlayer(server, saveId);
        expect(await unknownFolders(server, foldersBefore)).toEqual([]);
        expect(await reads(server, deployment).saveCount()).toBe(savesBefore + 1);
        expect(await deliveriesOf(server, saveId)).toEqual(["discord:sent", "webhook:sent"]);
        expect(api.requestsTo(DISCORD)).toHaveLength(1);
        expect(api.requestsTo(WEBHOOK)).toHaveLength(1);
      });

      notOnHub("while a stage runs: the runner sends the job back to generate when it records the stage", async () => {
        api.reset();
        // The default route answers slowly: the unknown save's notify stage is running when the real id arrives.
        api.respond(WEBHOOK, { status: 200, body: { ok: true }, delayMs: 1500 });
        const server = await start({ keys: true });
        const foldersBefore = await archiveFolders(deployment, server);
        const save = encryptedSave(pair, { sites: [5] });
        const saveId = await uploadAnonymous(server, save, "anon-running");
        await eventually(() => api.requestsTo(WEBHOOK).length === 1, 20_000, "push to the default route in flight");
        expect(await jobOf(server, saveId)).toMatchObject({ stage: "notify", state: "running" });
        expect((await uploadSave(server.url, save, "named-running")).status).toBe(200);
        expect(await rerunOf(server, saveId)).toBe(1);

        await archivedUnderPlayer(server, saveId);
        await server.waitForOutput(/stage=notify .*outcome="next=generate" note="the save took a real player id while the stage ran/);
        await eventually(async () => (await unknownFolders(server, foldersBefore)).length === 0, 5000, "old folder removed");
        expect(await rerunOf(server, saveId)).toBe(0);
        await eventually(() => api.requestsTo(DISCORD).length === 1, 10_000, "push to the player's route");
        expect(api.requestsTo(WEBHOOK)).toHaveLength(1);
        expect(await deliveriesOf(server, saveId)).toEqual(["discord:sent", "webhook:sent"]);
      });

      notOnHub("a push still waiting to retry on the default route is dropped once the player's routes do not include it", async () => {
        api.reset();
        api.respond(WEBHOOK, { status: 500, body: "busy" });
        const server = await start({ keys: true, route: ["discord"], backoff: "60000" });
        const save = encryptedSave(pair, { sites: [5] });
        const saveId = await uploadAnonymous(server, save, "anon-retrying");
        await eventually(async () => (await jobOf(server, saveId))?.state === "pending_retry", 20_000, "default push waiting to retry");
        expect(await deliveriesOf(server, saveId)).toEqual(["webhook:retrying"]);

        expect((await uploadSave(server.url, save, "named-retrying")).status).toBe(200);
        await archivedUnderPlayer(server, saveId);
        expect(await deliveriesOf(server, saveId)).toEqual(["discord:sent", "webhook:skipped"]);
        expect(api.requestsTo(WEBHOOK)).toHaveLength(1);
        expect(api.requestsTo(DISCORD)).toHaveLength(1);
      });
    });
  });
}
