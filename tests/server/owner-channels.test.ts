/**
 * A Chinese-reading owner's first configuration through the real server (`bun src/main.ts`): QQ (OneBot) and one
 * Bark phone, no NOTIFY_DEFAULT, Telegram not configured. Both get every refresh, Telegram nothing; Bark one
 * notification a refresh; pushes name the player by the owner's name (else the in-game one), the id staying in the
 * data; the start log says where pushes go, and flags a loopback PUBLIC_BASE_URL, in the owner's language.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { encodeSample, makeSampleSave } from "../../src/samples/index.ts";
import { encryptAesCbc } from "../../src/save/index.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, serversForThisFile } from "../helpers/server.ts";
import { SMALL_MAPS } from "../helpers/small-maps.ts";
import { reads } from "../helpers/store-reads.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile();
const OTHER_PLAYER = "7000000000000000042";
let api: RecordingServer;

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { code: 200, message: "success", status: "ok", retcode: 0, ok: true } } });
});
afterAll(() => api.stop());

/** A refresh of its own (drops differ by seed), optionally carrying the in-game name. */
function refresh(seed: number, gameName?: string): Uint8Array {
  const raw = makeSampleSave({ seed }) as { updatedResources: Record<string, unknown> };
  if (gameName !== undefined) raw.updatedResources.userGamedata = { userId: 1, name: gameName };
  return encryptAesCbc(encodeSample(raw), pair.key, pair.iv);
}

type BarkPush = { title: string; subtitle?: string; body: string; image?: string; url?: string };
type OneBotSend = { message: { type: string; data: { text?: string } }[] };
const barkPushes = () => api.requestsTo("/bark/push").map((r) => r.json as BarkPush);
const oneBotTexts = () => api.requestsTo("/onebot/send_group_msg").flatMap((r) => (r.json as OneBotSend).message.filter((s) => s.type === "text").map((s) => s.data.text ?? ""));

describe("QQ and Bark configured, no NOTIFY_DEFAULT, an owner reading Chinese", () => {
  test("both get each refresh once, Telegram nothing; names in the pushes and the rare text; the start log in Chinese", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mysekai-channels-"));
    mkdirSync(join(dataDir, "config"));
    writeFileSync(join(dataDir, "config", "bark_map.json"), JSON.stringify({ phone: "bark-device-key" }));
    const apiHost = new URL(api.url).host;
    const server = await start(
      {
        ...keyEnv,
        ...SMALL_MAPS,
        LANG: "zh_CN.UTF-8",
        ONEBOT_URL: `${api.url}/onebot`,
        ONEBOT_TARGET: "group:42",
        BARK_SERVER: `${api.url}/bark`,
        TELEGRAM_API_BASE: `${api.url}/tg`,
        PUBLIC_BASE_URL: "http://127.0.0.1:9478",
      },
      dataDir,
    );
    const log = server.output();
    expect(log).toContain(`[CONFIG] 不在 push_map.json 里的玩家推送到：onebot group:42（${apiHost}） + bark phone（所有已配置的渠道；NOTIFY_DEFAULT 可另设）`);
    expect(log).toMatch(/\[SERVER\] 已开始监听 url=/);
    // Printed after the line that says it listens.
    await server.waitForOutput("[CONFIG] WARN PUBLIC_BASE_URL 是 http://127.0.0.1:9478，即本机：手机连不上");
    // No ADMIN_TOKEN: /setup opens on this machine only, so the line gives this machine's address, not PUBLIC_BASE_URL.
    await server.waitForOutput(`  抓包设置（站长）: ${server.url}/setup`);

    expect((await ownerCliWith({ LANG: "zh_CN.UTF-8" }, server, "players", "add", PLAYER_ID, "--name", "小明")).code).toBe(0);
    expect((await uploadSave(server.url, refresh(101), crypto.randomUUID())).status).toBe(200);
    await eventually(() => barkPushes().length === 1 && oneBotTexts().length === 1, 30_000, "QQ and Bark pushed");

    const [bark] = barkPushes();
    expect(bark!.title).toContain("小明");
    expect(bark!.title).not.toContain(PLAYER_ID);
    expect(bark!.image).toEndWith("/overview.png");
    expect(bark!.url).toMatch(/^http:\/\/127\.0\.0\.1:9478\/p\/[\w-]+$/);
    expect(bark!.subtitle!.split(" · ").length).toBeGreaterThanOrEqual(2);
    expect(oneBotTexts()[0]).toContain("小明");
    expect(api.requests.filter((r) => r.path.startsWith("/tg"))).toHaveLength(0);

    // The id stays in the data: the archive's folder and summary.json; the rare text names the player.
    const folders = readdirSync(join(dataDir, "archive", "by-id", PLAYER_ID));
    const folder = join(dataDir, "archive", "by-id", PLAYER_ID, folders[0]!);
    expect(JSON.parse(readFileSync(join(folder, "summary.json"), "utf8")).playerId).toBe(PLAYER_ID);
    expect(readFileSync(join(folder, "rare_resources.txt"), "utf8").split("\n")[0]).toContain("小明");

    // A second refresh: one more notification each, never six; a player the owner never named: the in-game name.
    expect((await uploadSave(server.url, refresh(202, "みく"), crypto.randomUUID(), OTHER_PLAYER)).status).toBe(200);
    await eventually(() => barkPushes().length === 2 && oneBotTexts().length === 2, 30_000, "the second refresh pushed");
    expect(barkPushes()[1]!.title).toContain("みく");
    expect(barkPushes()[1]!.url).toBe(`http://127.0.0.1:9478/players/${OTHER_PLAYER}`);
    expect(oneBotTexts()[1]).toContain("みく");
    // Once every job is done, nothing more was sent.
    await eventually(async () => (await reads(server).jobs()).every((job) => job.state === "done"), 30_000, "jobs done");
    expect(api.requestsTo("/bark/push")).toHaveLength(2);
    expect(api.requests.filter((r) => r.path.startsWith("/tg"))).toHaveLength(0);
  }, 90_000);
});

/** An address of this machine that is not loopback (a LAN's, as an owner sets HOST to), if it has one. */
const LAN = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === "IPv4" && !address.internal)?.address;

test.skipIf(LAN === undefined)("HOST set to a LAN address and no ADMIN_TOKEN: the setup line says to set ADMIN_TOKEN, not an address that answers 403", async () => {
  const server = await start({ ...keyEnv, HOST: LAN!, NOTIFY_DEFAULT: "none", LANG: "C.UTF-8" });
  await server.waitForOutput("  capture setup (owner): set ADMIN_TOKEN to open it");
  expect(server.output()).not.toContain(`${LAN}:${new URL(server.url).port}/setup`);
  const setup = await fetch(`${server.url}/setup`);
  expect(setup.status).toBe(403);
});
