/**
 * The maps speak the player's language and tell the player's time: the save's region (its game host) picks both
 * unless MAP_LOCALE / MAP_TIMEZONE is set.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });

/** Uploads a save as captured from `host`, and returns its rare_resources.txt's first and last lines. */
async function rareText(server: RunningServer, pair: ReturnType<typeof testKeys>["pair"], host: string, id: string): Promise<{ title: string; dataTime: string }> {
  const response = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: encryptedSave(pair, { rareEverywhere: true }),
    headers: { "X-Upload-Id": id, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${host}/api/user/${PLAYER_ID}/mysekai?isForceAllReloadOnlyMysekai=True` },
  });
  expect(response.status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(id))!;
  const archive = await eventually(() => reads(server).archive(saveId), 30_000, `${id} archived`);
  const lines = readFileSync(join(server.dataDir, "archive", archive.rel_path, "rare_resources.txt"), "utf8").trimEnd().split("\n");
  return { title: lines[0]!, dataTime: lines.at(-1)! };
}

test("each region reads its own language in its own zone: CN zh-Hans UTC+8, TW zh-Hant UTC+8, KR ko UTC+9, JP ja UTC+9, EN en Pacific; no known host is CN's", async () => {
  const { pair, env } = testKeys();
  const server = await start(env);
  const expected: [string, string, string, string][] = [
    ["cn", REGION_HOSTS.cn[0], "MySekai 稀有资源", "存档时间"],
    ["tw", REGION_HOSTS.tw[0], "MySekai 稀有資源", "存檔時間"],
    ["kr", REGION_HOSTS.kr[0], "MySekai 희귀 자원", "데이터 시각"],
    ["jp", REGION_HOSTS.jp[0], "MySekai レア素材", "データ時刻"],
    ["en", REGION_HOSTS.en[1], "MySekai rare resources", "Data time"],
    ["other", "game-api.example", "MySekai 稀有资源", "存档时间"],
  ];
  // Los Angeles is UTC-8 or UTC-7 by the season of the save's own time.
  const zones: Record<string, RegExp> = { cn: / UTC\+8$/, tw: / UTC\+8$/, kr: / UTC\+9$/, jp: / UTC\+9$/, en: / UTC-[78]$/, other: / UTC\+8$/ };
  for (const [id, host, title, dataTime] of expected) {
    const text = await rareText(server, pair, host, id);
    expect(text.title).toContain(title);
    expect(text.dataTime).toStartWith(dataTime);
    expect(text.dataTime).toMatch(zones[id]!);
  }
  const uploaded = await Promise.all(expected.map(([id]) => reads(server).saveOfUpload(id)));
  const regions = (await reads(server).saves()).map((save) => ({ id: expected[uploaded.indexOf(save.save_id)]?.[0], region: save.region }));
  expect(regions).toEqual(expected.map(([id]) => ({ id, region: id === "other" ? null : id })));
}, 120_000);

test("MAP_LOCALE and MAP_TIMEZONE, when set, win over the region; the old value zh reads simplified Chinese", async () => {
  const { pair, env } = testKeys();
  const zh = await start({ ...env, MAP_LOCALE: "zh", MAP_TIMEZONE: "Asia/Kolkata" });
  const en = await rareText(zh, pair, REGION_HOSTS.en[0], "en-zh");
  expect(en.title).toContain("MySekai 稀有资源");
  expect(en.dataTime).toEndWith(" UTC+5:30");
  const ko = await start({ ...env, MAP_LOCALE: "ko" });
  expect((await rareText(ko, pair, REGION_HOSTS.tw[0], "tw-ko")).title).toContain("MySekai 희귀 자원");
}, 90_000);
