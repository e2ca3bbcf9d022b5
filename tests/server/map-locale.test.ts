/** The maps speak the player's language: the save's region (its game host) picks it unless MAP_LOCALE is set. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import { one } from "../helpers/db.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });

/** Uploads a save as captured from `host`, and returns the first line of its rare_resources.txt. */
async function rareTitle(server: RunningServer, pair: ReturnType<typeof testKeys>["pair"], host: string, id: string): Promise<string> {
  const response = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: encryptedSave(pair, { rareEverywhere: true }),
    headers: { "X-Upload-Id": id, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${host}/api/user/${PLAYER_ID}/mysekai?isForceAllReloadOnlyMysekai=True` },
  });
  expect(response.status).toBe(200);
  const saveId = one<{ save_id: number }>(server, "SELECT save_id FROM upload_tasks WHERE upload_id = ?", id)!.save_id;
  const archive = await eventually(() => one<{ rel_path: string }>(server, "SELECT rel_path FROM archives WHERE save_id = ?", saveId), 30_000, `${id} archived`);
  return readFileSync(join(server.dataDir, "archive", archive.rel_path, "rare_resources.txt"), "utf8").split("\n")[0]!;
}

test("JP → Japanese, EN → English, TW/CN → Chinese, KR → English; no known host → Chinese; the region is stored", async () => {
  const { pair, env } = testKeys();
  const server = await start(env);
  expect(await rareTitle(server, pair, REGION_HOSTS.jp[0], "jp")).toContain("MySekai レア素材");
  expect(await rareTitle(server, pair, REGION_HOSTS.en[1], "en")).toContain("MySekai rare resources");
  expect(await rareTitle(server, pair, REGION_HOSTS.tw[0], "tw")).toContain("MySekai 稀有资源");
  expect(await rareTitle(server, pair, REGION_HOSTS.kr[0], "kr")).toContain("MySekai rare resources");
  expect(await rareTitle(server, pair, "game-api.example", "other")).toContain("MySekai 稀有资源");
  const regions = server.openDb().query("SELECT u.upload_id AS id, s.region FROM saves s JOIN upload_tasks u ON u.save_id = s.id ORDER BY s.id").all();
  expect(regions).toEqual([{ id: "jp", region: "jp" }, { id: "en", region: "en" }, { id: "tw", region: "tw" }, { id: "kr", region: "kr" }, { id: "other", region: null }]);
}, 90_000);

test("MAP_LOCALE, when set, wins over the region", async () => {
  const { pair, env } = testKeys();
  const server = await start({ ...env, MAP_LOCALE: "zh" });
  expect(await rareTitle(server, pair, REGION_HOSTS.en[0], "en-zh")).toContain("MySekai 稀有资源");
}, 60_000);
