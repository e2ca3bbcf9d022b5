/**
 * Birthday party deliveries as the largest hub keeps them, through a real server with a data webhook and a
 * recording chat channel, on both deployments: a delivery with `isRefreshed: true` and harvest maps is the player's
 * newest harvest state (pushed once as a party refresh, the data API's save with its maps in place and every other
 * key kept, upload_times moved, the data webhook called, the history marking it); a delivery that refreshed nothing
 * (or carries no maps) is a record: no push, no webhook, the data API and upload_times unchanged. The next visit of
 * the save after a refresh shows the refresh's drops and is not pushed again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { birthdayDelivery, DELIVERY_URL, OBTAINED, PARTY_ID } from "../helpers/birthday-party.ts";
import { deployments } from "../helpers/deployments.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLineWith } from "../helpers/owner-cli.ts";
import { harvestMapsOf, REAL_SAVE_PLAYER, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";
import { hubSettingsOf } from "../helpers/hub-link-key.ts";

type Json = Record<string, unknown>;
const startService = serversForThisFile();
let hooks: RecordingServer;
beforeAll(async () => {
  hooks = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
});
afterAll(() => hooks.stop());

for (const deployment of deployments("party")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    let server: RunningServer;
    let token: string;
    let pair: ReturnType<typeof testKeys>["pair"];
    const chat = `/chat-${deployment.hub ? "hub" : "sqlite"}`;
    const data = `/data-${deployment.hub ? "hub" : "sqlite"}`;
    const pushes = () => hooks.requests.filter((r) => r.path === chat).map((r) => r.json as { title: string; summary: { dataType: string } });
    const webhooks = () => hooks.requests.filter((r) => r.path.startsWith(`${data}/`)).map((r) => r.path.slice(data.length));
    let uploads = 0;

    /** Uploads `body` with `url` and waits for its job to end; its save id and received time. */
    async function upload(body: Json, url: string): Promise<{ id: number; receivedAt: number; state: string }> {
      const id = `party-${++uploads}`;
      expect((await uploadRealForm(server.url, encryptRaw(pair, body), id, url)).status).toBe(200);
      const saveId = (await reads(server, deployment).saveOfUpload(id))!;
      const job = () => reads(server, deployment).job(saveId);
      await eventually(async () => ["done", "failed"].includes((await job())?.state ?? ""), 60_000, `save ${saveId} processed`);
      return { id: saveId, receivedAt: (await reads(server, deployment).saveRow(saveId))!.received_at, state: (await job())!.state };
    }
    const read = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const latestSave = async () => {
      const response = await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai`);
      expect(response.status).toBe(200);
      return { etag: response.headers.get("etag"), body: (await response.json()) as Json };
    };
    const uploadTime = async () => {
      const response = await fetch(`${server.url}/api/cn/mysekai/upload_times`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify([[REAL_SAVE_PLAYER, "latest"]]) });
      return ((await response.json()) as number[])[0];
    };
    const resources = (save: Json) => save.updatedResources as Json;
    const withoutMaps = (save: Json) => ({ ...save, upload_time: 0, local_source: "", updatedResources: { ...resources(save), userMysekaiHarvestMaps: null } });

    beforeAll(async () => {
      const keys = testKeys();
      pair = keys.pair;
      const settings = await deployment.settings();
      server = await startService({ ...settings, ...keys.env, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${hooks.url}${chat}` });
      const cli = (...args: string[]) => ownerCliLastLineWith(hubSettingsOf(settings), server, ...args);
      await cli("data-webhooks", "add", `${hooks.url}${data}/{data_type}/{user_id}`);
      token = await cli("api-tokens", "add", "bot");
      expect((await upload(realSave(), "https://mkcn-prod-public-60001-1.dailygn.com/api/user/7000000000000000001/mysekai?isForceAllReloadOnlyMysekai=True")).state).toBe("done");
      await eventually(() => webhooks().length === 1, 30_000, "the save's data webhook");
    }, 180_000);
    afterAll(() => deployment.end());

    test("a delivery that refreshed nothing, or carries no maps, is a record: no push, no webhook, nothing a bot reads changes", async () => {
      const before = await latestSave();
      const time = await uploadTime();
      expect(pushes().map((p) => p.summary.dataType)).toEqual(["mysekai"]);

      for (const shape of [{ refreshed: false }, {}, { refreshed: true, maps: false }]) {
        const body = birthdayDelivery(shape);
        if (!("refreshed" in shape)) delete body.isRefreshed;
        const record = await upload(body, DELIVERY_URL);
        expect(record.state).toBe("done");
        expect((await reads(server, deployment).saveRow(record.id))!.partial).toBe(true);
      }
      expect(pushes()).toHaveLength(1);
      expect(webhooks()).toEqual([`/mysekai/${REAL_SAVE_PLAYER}`]);
      const after = await latestSave();
      expect(after.etag).toBe(before.etag!);
      expect(after.body).toEqual(before.body);
      expect(await uploadTime()).toBe(time!);
      expect((await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai_birthday_party`)).status).toBe(404);
      const page = await (await fetch(`${server.url}/players/${REAL_SAVE_PLAYER}`)).text();
      expect(page).toContain("birthday party delivery (no refresh)");
      expect(page).toContain("kept as a record: this delivery did not refresh the harvest maps");
    }, 180_000);

    test("a refresh is pushed once, is the data API's save with its maps in place, moves upload_times, calls the webhook; the next visit is no new push", async () => {
      const before = await latestSave();
      const delivery = birthdayDelivery({ refreshed: true });
      const refresh = await upload(delivery, DELIVERY_URL);
      expect(refresh.state).toBe("done");
      // Drawn with the sites its maps hold: no party site 9 of its own.
      const files = (await reads(server, deployment).archive(refresh.id))!.files;
      expect(files.filter((file) => file.startsWith("site_")).sort()).toEqual(["site_5.png", "site_6.png", "site_7.png", "site_8.png"]);

      // Pushed once, titled as a party refresh; the bots told.
      expect(pushes().map((p) => [p.summary.dataType, p.title])).toEqual([
        ["mysekai", expect.any(String)],
        ["mysekai_birthday_party", expect.stringMatching(/^MySekai 生日派对刷新 · /)],
      ]);
      await eventually(() => webhooks().length === 2, 30_000, "the refresh's data webhook");
      expect(webhooks()).toEqual([`/mysekai/${REAL_SAVE_PLAYER}`, `/mysekai_birthday_party/${REAL_SAVE_PLAYER}`]);

      // The save a bot reads: the full save with the delivery's harvest maps, every other key as it was.
      const after = await latestSave();
      expect(after.etag).not.toBe(before.etag!);
      expect(resources(after.body).userMysekaiHarvestMaps).toEqual(harvestMapsOf(delivery));
      expect(resources(after.body).userMysekaiHarvestMaps).not.toEqual(resources(before.body).userMysekaiHarvestMaps);
      expect(withoutMaps(after.body)).toEqual(withoutMaps(before.body));
      expect(Object.keys(resources(after.body))).toEqual(Object.keys(resources(before.body)));
      expect(after.body.upload_time).toBe(refresh.receivedAt);
      expect(await uploadTime()).toBe(refresh.receivedAt);
      const party = await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai_birthday_party`);
      expect(((await party.json()) as Json).isRefreshed).toBe(true);

      // The history marks it, and the page shows the party's progress against its master data's largest delivery reward.
      const page = await (await fetch(`${server.url}/players/${REAL_SAVE_PLAYER}`)).text();
      expect(page).toContain("birthday party refresh");
      expect(page).toContain(`data-party="${PARTY_ID}"`);
      expect(page).toContain("Miku 2026");
      expect(page).toContain(`${OBTAINED} / 400 materials obtained`);
      expect(page).toMatch(/<progress max="400" value="30"/);

      // The game's next answer to a visit holds the refreshed drops: archived, no second push.
      const visit = realSave();
      resources(visit).userMysekaiHarvestMaps = harvestMapsOf(birthdayDelivery({ refreshed: true }));
      const next = await upload(visit, "https://mkcn-prod-public-60001-1.dailygn.com/api/user/7000000000000000001/mysekai?isForceAllReloadOnlyMysekai=False");
      expect((await reads(server, deployment).saveRow(next.id))!.repeat_of).toBe(refresh.id);
      expect(pushes()).toHaveLength(2);
      expect(await uploadTime()).toBe(next.receivedAt);
    }, 180_000);
  });
}
