/**
 * Who may read what, from the pages: the owner makes and revokes API tokens on the status page (a token shown
 * once, never listed), and a player turns public reads of their own save on and off on their page. Forms from
 * another site are refused.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none" });
let server: RunningServer;

beforeAll(async () => {
  server = await start();
  expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed: 21, now: Date.now() }), "pages-1")).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload("pages-1"))!;
  await jobReaches(server, saveId, "done", 30_000, "the save done");
}, 60_000);

/** A form POST as the browser sends it from a page of `site` (this server's own origin by default). */
function post(path: string, fields: Record<string, string>, origin = server.url): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin },
    redirect: "manual",
  });
}

const read = (token: string) => fetch(`${server.url}/api/jp/user/${SAMPLE_PLAYER_ID}/mysekai`, { headers: { authorization: `Bearer ${token}` } });
const publicRead = () => fetch(`${server.url}/public/jp/mysekai/${SAMPLE_PLAYER_ID}`);

describe("API tokens on the owner's page", () => {
  test("made with the form: shown once, then listed by name only; it reads; revoked, it reads nothing", async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toContain("No API tokens yet.");
    const made = await post("/status/api-tokens", { name: "lunabot", players: ` ${SAMPLE_PLAYER_ID} ` });
    expect(made.status).toBe(200);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const token = /msk_[A-Za-z0-9_-]+/.exec(await made.text())?.[0];
    expect(token).toBeDefined();
    expect((await read(token!)).status).toBe(200);

    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain("lunabot");
    expect(page).toContain(SAMPLE_PLAYER_ID);
    expect(page).not.toContain(token!);
    expect(server.output()).not.toContain(token!);

    expect((await post("/status/api-tokens/revoke", { name: "lunabot" })).status).toBe(303);
    expect((await read(token!)).status).toBe(401);
  });

  test("bad names and player lists get a 400; another site's form gets a 403 and makes nothing", async () => {
    expect((await post("/status/api-tokens", { name: "no spaces" })).status).toBe(400);
    expect((await post("/status/api-tokens", { name: "bot", players: "12,abc" })).status).toBe(400);
    const crossSite = await post("/status/api-tokens", { name: "evil" }, "https://evil.example");
    expect(crossSite.status).toBe(403);
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain("evil");
  });
});

describe("public reads on the player's page", () => {
  test("the player turns them on and off; another site cannot; a wrong link is a 404", async () => {
    const link = await ownerCliLastLine(server, "players", "add", SAMPLE_PLAYER_ID, "--name", "Mizuki");
    const path = /\/p\/[A-Za-z0-9_-]+/.exec(link)![0];
    expect(await (await fetch(`${server.url}${path}`)).text()).toContain("Turn public reads on");
    expect((await publicRead()).status).toBe(404);

    expect((await post(`${path}/public`, { on: "1" }, "https://evil.example")).status).toBe(403);
    expect((await publicRead()).status).toBe(404);

    const on = await post(`${path}/public`, { on: "1" });
    expect(on.status).toBe(303);
    expect(on.headers.get("location")).toBe(path);
    const page = await (await fetch(`${server.url}${path}`)).text();
    expect(page).toContain("Turn public reads off");
    expect(page).toContain(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}`);
    expect((await publicRead()).status).toBe(200);

    expect((await post(`${path}/public`, { on: "0" })).status).toBe(303);
    expect((await publicRead()).status).toBe(404);
    expect((await post(`${path}/public`, { on: "maybe" })).status).toBe(400);
    expect((await post("/p/not-a-real-link/public", { on: "1" })).status).toBe(404);
  });
});
