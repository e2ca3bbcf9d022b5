/**
 * A partial refresh's nudge carries the player's personal link (/p/<token>: their settings, their uploads) only on
 * a route nobody else shares. Two players routed to one group channel, or a player on the default route, are told
 * to ask the owner or open /setup instead (issue 49, point 1).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";

const GROUP_A = "1000000000000000491";
const GROUP_B = "1000000000000000492";
const ALONE = "1000000000000000493";
const DEFAULTED = "1000000000000000494";
const BASE = "https://maps.example.org";
const { pair, env: keyEnv } = testKeys();
const configDir = mkdtempSync(join(tmpdir(), "nudge-links-"));
writeFileSync(join(configDir, "push_map.json"), JSON.stringify({ [GROUP_A]: "webhook", [GROUP_B]: "webhook", [ALONE]: "discord" }));
const start = serversForThisFile({ ...keyEnv, CONFIG_DIR: configDir, PUBLIC_BASE_URL: BASE, MAP_LOCALE: "en" });
let chats: RecordingServer;
let server: RunningServer;

beforeAll(async () => {
  chats = await startRecordingServer({ defaultResponse: { status: 204 } });
  server = await start({ WEBHOOK_URL: `${chats.url}/group`, DISCORD_WEBHOOK_URL: `${chats.url}/alone`, NOTIFY_DEFAULT: "discord" });
  for (const player of [GROUP_A, GROUP_B, ALONE, DEFAULTED]) {
    expect((await ownerCli(server, "players", "add", player)).code).toBe(0);
    expect((await ownerCli(server, "watch", "nudge", player, "on", "3")).code).toBe(0);
  }
}, 60_000);
afterAll(() => chats.stop());

/** A partial refresh (no harvest maps) uploaded under the player's id without any credential, its job finished. */
async function partialRefresh(playerId: string, seed: number): Promise<void> {
  const uploadId = crypto.randomUUID();
  const body = encryptRaw(pair, rawSave({ ...makeSampleMySekaiSave({ seed }), sites: [], now: Date.now() + seed }));
  expect((await uploadSave(server.url, body, uploadId, playerId)).status).toBe(200);
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, id, "done", 30_000, `save ${id} done`);
}

/** The webhook's JSON names the player; Discord's text does not (only DEFAULTED's nudge goes there). */
const nudgeTo = (path: string, playerId: string) => chats.requests.find((r) => r.path === path && (path !== "/group" || r.text.includes(playerId)) && r.text.includes("partial refresh"));

describe("the partial nudge's link", () => {
  test("a group chat two players share gets no personal link: it says to ask the owner or open /setup", async () => {
    await partialRefresh(GROUP_A, 4901);
    await eventually(() => nudgeTo("/group", GROUP_A) !== undefined, 30_000, "the group's nudge");
    const text = nudgeTo("/group", GROUP_A)!.text;
    expect(text).not.toContain("/p/");
    expect(text).toContain(`ask the owner for your personal link, or open ${BASE}/setup`);
  });

  test("the default route (anyone unlisted gets it) gets no personal link either", async () => {
    await partialRefresh(DEFAULTED, 4902);
    await eventually(() => nudgeTo("/alone", DEFAULTED) !== undefined, 30_000, "the default route's nudge");
    expect(nudgeTo("/alone", DEFAULTED)!.text).not.toContain("/p/");
  });

  /** A second service whose push_map.json routes ALONE to `route`: the text of ALONE's partial nudge, as QQ got it. */
  async function aloneNudgeOn(route: string, onebotTarget: string): Promise<{ text: string; link: string }> {
    const alone = await startRecordingServer({ defaultResponse: { status: 200, body: { status: "ok", retcode: 0 } } });
    const own = mkdtempSync(join(tmpdir(), "nudge-links-own-"));
    writeFileSync(join(own, "push_map.json"), JSON.stringify({ [ALONE]: route, [GROUP_A]: "webhook" }));
    const previous = server;
    try {
      server = await start({ CONFIG_DIR: own, WEBHOOK_URL: `${alone.url}/group`, ONEBOT_URL: `${alone.url}/qq`, ONEBOT_TARGET: onebotTarget, NOTIFY_DEFAULT: "webhook" });
      const link = (await ownerCli(server, "players", "add", ALONE)).out.match(/\/p\/[A-Za-z0-9_-]+/)![0];
      expect((await ownerCli(server, "watch", "nudge", ALONE, "on", "3")).code).toBe(0);
      await partialRefresh(ALONE, 4903 + onebotTarget.length);
      await eventually(() => alone.requests.some((r) => r.path.startsWith("/qq/") && r.text.includes("partial refresh")), 30_000, "the player's own nudge");
      return { text: alone.requests.find((r) => r.path.startsWith("/qq/"))!.text, link };
    } finally {
      server = previous;
      await alone.stop();
    }
  }

  test("a private chat of the player's own (shared with nobody, not the default) carries the link", async () => {
    const { text, link } = await aloneNudgeOn("onebot", "private:10001");
    expect(text).toContain(`${BASE}${link}`);
  });

  test("a group chat only this player is routed to gets no link either: others read a group", async () => {
    const { text } = await aloneNudgeOn("onebot", "group:20002");
    expect(text).not.toContain("/p/");
    expect(text).toContain(`ask the owner for your personal link, or open ${BASE}/setup`);
  });
});
