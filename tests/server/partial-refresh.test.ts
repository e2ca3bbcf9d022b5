/**
 * A partial refresh (isForceAllReloadOnlyMysekai=False: no harvest maps) after a full save of the same player:
 * archived and marked partial on the status page and in the player's history, never pushed (nor a data webhook
 * called), and the data API's latest stays the full save.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine } from "../helpers/owner-cli.ts";
import { REAL_SAVE_PLAYER, REAL_SAVE_URL, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile();
let hooks: RecordingServer;
beforeAll(async () => {
  hooks = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
});
afterAll(() => hooks.stop());

async function ingest(server: RunningServer, body: Uint8Array, uploadId: string, url = REAL_SAVE_URL) {
  expect((await uploadRealForm(server.url, body, uploadId, url)).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, saveId, "done", 60_000, `save ${saveId} done`);
  return saveId;
}

describe("a partial refresh after a full save", () => {
  test("marked partial on the status page and in the history, not pushed, not the data API's latest", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${hooks.url}/partial` });
    expect((await ownerCli(server, "data-webhooks", "add", `${hooks.url}/data/{data_type}/{user_id}`)).code).toBe(0);
    const full = await ingest(server, encryptRaw(pair, realSave()), "full");
    const partialSave = realSave();
    (partialSave.updatedResources as Record<string, unknown>).userMysekaiHarvestMaps = [];
    const partial = await ingest(server, encryptRaw(pair, partialSave), "partial", REAL_SAVE_URL.replace("=True", "=False"));
    expect(partial).toBeGreaterThan(full);
    expect(hooks.requests.filter((r) => r.path === "/partial")).toHaveLength(1);
    // Nor are bots told of it: what they read did not change.
    expect(hooks.requests.filter((r) => r.path.startsWith("/data/")).map((r) => r.path)).toEqual([`/data/mysekai/${REAL_SAVE_PLAYER}`]);

    const token = await ownerCliLastLine(server, "api-tokens", "add", "bot");
    const latest = (await (await fetch(`${server.url}/api/cn/user/${REAL_SAVE_PLAYER}/mysekai`, { headers: { authorization: `Bearer ${token}` } })).json()) as { updatedResources: { userMysekaiHarvestMaps: unknown[] } };
    expect(latest.updatedResources.userMysekaiHarvestMaps).toHaveLength(4);

    const status = await (await fetch(`${server.url}/`)).text();
    expect(status).toContain("partial refresh (no harvest maps)");
    expect(status.match(/partial refresh \(no harvest maps\)/g)).toHaveLength(1);
    expect(await (await fetch(`${server.url}/players/${REAL_SAVE_PLAYER}`)).text()).toContain("no harvest maps in this refresh");
  }, 90_000);
});
