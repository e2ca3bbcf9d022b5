/**
 * What lunabot's PUT update_msr_sub is used for (issue 36, point 2): a save of a player some bot subscribes to is
 * processed before saves queued earlier. Two saves wait for the AES key (the unsubscribed player's sent first); a
 * restart with the key lets one pipeline slot take them in the queue's order. Both deployments.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deployments } from "../helpers/deployments.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLineWith } from "../helpers/owner-cli.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { hubSettingsOf } from "../helpers/hub-link-key.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none", PIPELINE_CONCURRENCY: "1" });
const UNSUBSCRIBED = "1234567890123456789";

for (const deployment of deployments("subscribed")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    let settings: Record<string, string> = {};
    beforeAll(async () => {
      settings = await deployment.settings();
    }, 180_000);
    afterAll(() => deployment.end());

    test("a subscribed player's save is drawn before an unsubscribed one queued earlier", async () => {
      const { pair, env } = testKeys();
      const keyless = await start(settings);
      await keyless.waitForOutput("no AES key configured");
      const token = await ownerCliLastLineWith(hubSettingsOf(settings), keyless, "api-tokens", "add", "lunabot");
      const put = await fetch(`${keyless.url}/api/jp/mysekai/update_msr_sub`, { method: "PUT", body: JSON.stringify([[PLAYER_ID, "latest"]]), headers: { authorization: `Bearer ${token}` } });
      expect(put.status).toBe(200);
      expect((await uploadSave(keyless.url, encryptedSave(pair), "first-in", UNSUBSCRIBED)).status).toBe(200);
      expect((await uploadSave(keyless.url, encryptedSave(pair), "second-in", PLAYER_ID)).status).toBe(200);
      const saveOf = async (server: RunningServer, uploadId: string) => (await reads(server, deployment).saveOfUpload(uploadId))!;
      const [earlier, subscribed] = [await saveOf(keyless, "first-in"), await saveOf(keyless, "second-in")];
      expect(earlier).toBeLessThan(subscribed);
      const stateOf = async (server: RunningServer, saveId: number) => (await reads(server, deployment).job(saveId))?.state;
      await eventually(async () => (await stateOf(keyless, earlier)) === "waiting_for_key" && (await stateOf(keyless, subscribed)) === "waiting_for_key", 20_000, "both saves waiting for the key");
      await keyless.stop();

      const keyed = await start({ ...settings, ...env }, keyless.dataDir);
      await eventually(async () => (await stateOf(keyed, earlier)) === "done" && (await stateOf(keyed, subscribed)) === "done", 60_000, "both saves done");
      const drawnAt = async (saveId: number) => (await reads(keyed, deployment).archive(saveId))!.created_at;
      expect(await drawnAt(subscribed)).toBeLessThan(await drawnAt(earlier));
      await keyed.stop();
    }, 120_000);
  });
}
