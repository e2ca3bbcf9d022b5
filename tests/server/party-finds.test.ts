/**
 * Issue 44 through a real server with a webhook: the real CN save with a party-limited 2026 material, a known
 * party's dew, an unknown mysekai_material 150 and a drop of the unknown type mysekai_blueprint is archived and
 * pushed (never failed); the push names every find; the owner's page and the player's capture health count the
 * three resources the catalogue does not know, in the page's language; the log names each unknown id once, however
 * many saves show it (here the object form, then CN 6.4.0's positional form).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SummaryJson } from "../../src/maps/index.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { partyFindsSave, positionalRealSave, REAL_SAVE_PLAYER, uploadRealForm } from "../helpers/real-save.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile();
let api: RecordingServer;
let server: RunningServer;
const HOOK = "/hook/party-finds";
const UNKNOWN_LINE = "resource the catalogue does not know";

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
  server = await start({ ...keyEnv, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${api.url}${HOOK}` });
}, 60_000);
afterAll(async () => {
  await api.stop();
});

async function send(body: Uint8Array, uploadId: string): Promise<number> {
  expect((await uploadRealForm(server.url, body, uploadId)).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(uploadId))!;
  await eventually(async () => ["done", "failed"].includes((await reads(server).job(saveId))?.state ?? ""), 90_000, `save ${saveId} finished`);
  expect((await reads(server).job(saveId))?.state).toBe("done");
  return saveId;
}

const pushes = () => api.requests.filter((r) => r.path === HOOK).map((r) => r.json as { rareText: string; summary: SummaryJson });
const page = async (path: string, lang: string) => (await fetch(`${server.url}${path}`, { headers: { "accept-language": lang } })).text();

test("pushed with every find named; counted on the owner's page and the player's capture health; each unknown id logged once", async () => {
  await send(encryptRaw(pair, partyFindsSave()), "party-object");
  await eventually(() => pushes().length === 1, 30_000, "the push");
  const push = pushes()[0]!;
  expect(push.rareText).toContain("★ 生日派对限定 · 未知材料 #297 ×1");
  expect(push.rareText).toContain("★ 未来 2026 生日派对 · 庆典甘露（蓝绿色） ×1");
  expect(push.rareText).toContain("◆ 未知材料 #150 ×1");
  expect(push.rareText).toContain("◆ 未知设计图 #3 ×1");
  expect(push.summary.rareFinds.filter((f) => f.find !== null).map((f) => f.key).sort()).toEqual(["material:194", "mysekai_blueprint:3", "mysekai_material:150", "mysekai_material:297"]);

  // The owner's page (loopback, no ADMIN_TOKEN) and the player's page, in two languages each.
  expect(await page("/", "zh-CN")).toMatch(/data-banner="unknown-resources">有 3 种资源本服务器还不认识：请更新资源目录</);
  expect(await page("/", "en")).toContain("3 resources this server does not know yet: update the catalogue");
  const link = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", REAL_SAVE_PLAYER))![0];
  const health = (html: string) => html.slice(html.indexOf('id="capture-health"'), html.indexOf("</section>", html.indexOf('id="capture-health"')));
  expect(health(await page(link, "ja"))).toContain("このサーバーがまだ知らない素材が 3 件あります");
  expect(health(await page(link, "ko"))).toContain("이 서버가 아직 모르는 자원 3개");

  // The same finds again, in the positional form (other bytes: another save): its unknown ids are not logged again.
  const again = positionalRealSave({ from: partyFindsSave() });
  (again.updatedResources as Record<string, unknown>).now = Date.now();
  await send(encryptRaw(pair, again), "party-positional");
  const lines = server.output().split("\n").filter((line) => line.includes(UNKNOWN_LINE));
  expect(lines.map((line) => /type=(\S+) id=(\d+)/.exec(line)!.slice(1).join(":")).sort()).toEqual(["mysekai_blueprint:3", "mysekai_material:150", "mysekai_material:297"]);
}, 180_000);
