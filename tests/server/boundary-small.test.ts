/**
 * The smaller findings of issue 49 (point 6), each through a real server: the data-type routes match their names
 * only; spawn images are linked only for site ids their route serves; the public-read URL on a player's page names
 * their save's server; a save with a `__proto__` key says so; the token form never replaces a token; a throttled
 * login names its peer; JSON answers carry nosniff; the origin check compares the scheme too; an Authorization
 * header with anything after its credential is no credential.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { encode } from "@msgpack/msgpack";
import { makeEncryptedSample, makeSampleMySekaiSave } from "../../src/samples/index.ts";
import { encryptAesCbc } from "../../src/save/index.ts";
import { uploadFinished } from "../helpers/regional-upload.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";
import { reads } from "../helpers/store-reads.ts";
import { encryptRaw, rawSave, testKeys } from "../helpers/saves.ts";

const CN_PLAYER = "1000000000000000481";
const JP_PLAYER = "1000000000000000482";
const ADMIN_TOKEN = "owner-token-small-findings-1234";
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none", DEFAULT_REGION: "jp" });
let server: RunningServer;
let guarded: RunningServer;
let cnLink: string;

/** An upload from the region's game host, its job finished: how it ended. */
async function send(playerId: string, region: "cn" | "jp", body: Uint8Array): Promise<{ state: string; last_error: string | null }> {
  const id = await uploadFinished(server, playerId, region, body);
  return (await reads(server).job(id))!;
}

beforeAll(async () => {
  [server, guarded] = await Promise.all([start(), start({ ADMIN_TOKEN })]);
  cnLink = /\/p\/[A-Za-z0-9_-]+/.exec((await ownerCli(server, "players", "add", CN_PLAYER)).out)![0];
  // A rare find on a site whose id no route serves (1000), beside the usual ones.
  const typed = makeSampleMySekaiSave({ seed: 4981, rareEverywhere: true });
  typed.sites.push({ ...typed.sites[0]!, siteId: 1000 });
  expect((await send(CN_PLAYER, "cn", encryptRaw(pair, rawSave(typed)))).state).toBe("done");
  expect((await send(JP_PLAYER, "jp", makeEncryptedSample(pair, { seed: 4982, now: Date.now() }))).state).toBe("done");
  for (const player of [CN_PLAYER, JP_PLAYER]) expect((await ownerCli(server, "players", "public", player, "on")).code).toBe(0);
}, 90_000);

describe("issue 49's smaller findings", () => {
  test("the data-type routes answer their two names only", async () => {
    expect((await fetch(`${server.url}/public/jp/mysekai/${JP_PLAYER}`)).status).toBe(200);
    for (const name of ["xmysekai", "mysekaix", "mysekai_birthday_party_admin", "xmysekai_birthday_party"]) {
      expect({ name, status: (await fetch(`${server.url}/public/jp/${name}/${JP_PLAYER}`)).status }).toEqual({ name, status: 404 });
    }
    // The data API's, with a token that reads every player.
    const token = (await ownerCli(server, "api-tokens", "add", "reader")).out.trim().split("\n").at(-1)!;
    expect((await fetch(`${server.url}/api/jp/user/${JP_PLAYER}/mysekai`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    for (const name of ["xmysekai", "mysekai_birthday_party_admin"]) {
      const answer = await fetch(`${server.url}/api/jp/user/${JP_PLAYER}/${name}`, { headers: { authorization: `Bearer ${token}` } });
      expect({ name, status: answer.status, body: await answer.text() }).toEqual({ name, status: 404, body: "not found" });
    }
  });

  test("the player's page links spawn images only for site ids the route serves, and the public URL names their save's server", async () => {
    const page = await (await fetch(`${server.url}${cnLink}`, { headers: { "accept-language": "en" } })).text();
    const images = new RegExp(`/spawns/${CN_PLAYER}/[0-9a-f]{32}`).exec(page)![0];
    expect(page).toContain(`${images}/site_5.png`);
    expect(page).not.toContain(`${images}/site_1000.png`);
    expect((await fetch(`${server.url}${images}/site_1000.png`)).status).toBe(404);
    expect(page).toContain(`/public/cn/mysekai/${CN_PLAYER}`);
    expect(page).not.toContain(`/public/jp/mysekai/${CN_PLAYER}`);
    expect((await fetch(`${server.url}/public/cn/mysekai/${CN_PLAYER}`)).status).toBe(200);
  });

  test("a save with a __proto__ key fails saying so, not as 'not MessagePack'", async () => {
    const raw = encode(JSON.parse('{"updatedResources":{"__proto__":{"polluted":true},"userMysekaiHarvestMaps":[]}}'));
    const job = await send(JP_PLAYER, "jp", encryptAesCbc(raw, pair.key, pair.iv));
    expect(job.state).toBe("failed");
    expect(job.last_error).toContain("MessagePack with a __proto__ map key");
  });

  test("the status page's token form refuses a name in use instead of replacing its token", async () => {
    const form = (name: string) => fetch(`${server.url}/status/api-tokens`, { method: "POST", headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", "accept-language": "en" }, body: new URLSearchParams({ name }) });
    const made = await (await form("bot")).text();
    const token = /<code class="token" translate="no">([^<]+)<\/code>/.exec(made)![1]!;
    const again = await form("bot");
    expect([again.status, await again.text()]).toEqual([409, "a token named bot exists: revoke it first, or choose another name"]);
    expect((await fetch(`${server.url}/api/jp/user/${JP_PLAYER}/mysekai`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  test("JSON answers carry X-Content-Type-Options: nosniff", async () => {
    for (const path of ["/healthz", "/api/status", `/public/jp/mysekai/${JP_PLAYER}`]) {
      const answer = await fetch(`${server.url}${path}`);
      expect({ path, type: answer.headers.get("content-type")?.split(";")[0], nosniff: answer.headers.get("x-content-type-options") }).toEqual({ path, type: "application/json", nosniff: "nosniff" });
    }
  });

  test("a state change whose Origin names this host under another scheme is cross-site", async () => {
    const retry = (origin: string) => fetch(`${server.url}/status/retry`, { method: "POST", redirect: "manual", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect((await retry(server.url.replace("http://", "https://"))).status).toBe(403);
    expect((await retry(server.url)).status).toBe(303);
  });

  test("Authorization with anything after its credential opens nothing; a throttled login names its peer", async () => {
    const page = (authorization: string) => fetch(`${guarded.url}/`, { headers: { authorization } });
    expect((await page(`Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    expect((await page(`Bearer ${ADMIN_TOKEN} junk`)).status).toBe(401);
    expect((await page(`Basic ${btoa(`owner:${ADMIN_TOKEN}`)} junk`)).status).toBe(401);
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) status = (await page(`Bearer wrong-token-${i}`)).status;
    expect(status).toBe(429);
    expect(guarded.output()).toMatch(/owner login refused: too many wrong tokens from this peer status=429 peer=127\.0\.0\.1/);
  });
});
