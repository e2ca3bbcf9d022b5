/**
 * The data API as its clients use it: lunabot (`mysekai_api_url` template with {uid}, Bearer, mode, filter,
 * upload_times sent as a GET with a JSON body, update_msr_sub as a PUT, the older plain GET) and a Haruki-style public client (`key`). Private by default.
 * The same tests run on both deployments: one process on SQLite, and hub mode (PostgreSQL + a Swift bucket).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample, makeSampleSave, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { parseExact } from "../helpers/exact-json.ts";
import { deployments } from "../helpers/deployments.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLineWith } from "../helpers/owner-cli.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { reads } from "../helpers/store-reads.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";
import { hubSettingsOf } from "../helpers/hub-link-key.ts";

const startService = serversForThisFile({ NOTIFY_DEFAULT: "none" });
const SAMPLE = { seed: 7, now: Date.now() };
const raw = makeSampleSave(SAMPLE);

for (const deployment of deployments("api")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    let settings: Record<string, string> = {};
    const start = (env: Record<string, string>) => startService({ ...settings, ...env });
    const cli = (server: RunningServer, ...args: string[]) => ownerCliLastLineWith(hubSettingsOf(settings), server, ...args);

    let server: RunningServer;
    let token: string;
    const lunabotUrl = "{base}/api/jp/user/{uid}/mysekai"; // gameapi.yaml: mysekai_api_url
    const mysekai = (uid: string, query = "", headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
      fetch(`${lunabotUrl.replace("{base}", server.url).replace("{uid}", uid)}${query}`, { headers });

    beforeAll(async () => {
      const { pair, env } = testKeys();
      settings = await deployment.settings();
      server = await start(env);
      expect((await uploadSave(server.url, makeEncryptedSample(pair, SAMPLE), "api-1")).status).toBe(200);
      const saveId = (await reads(server, deployment).saveOfUpload("api-1"))!;
      const job = () => reads(server, deployment).job(saveId);
      await eventually(async () => (await job())?.state === "done", 30_000, "the save done");
      token = await cli(server, "api-tokens", "add", "lunabot");
    }, 180_000);
    afterAll(() => deployment.end());

    describe("lunabot's reads", () => {
      test("the latest save as exact JSON: 19-digit ids are number literals equal to the save's own", async () => {
        const response = await mysekai(SAMPLE_PLAYER_ID, "?mode=latest");
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toContain("application/json");
        const text = await response.text();
        const body = parseExact(text) as Record<string, any>;
        const own = raw.updatedResources as Record<string, any>;
        // The 19-digit player id: a JSON number literal, read back exact (a JS number would end in ...0160).
        expect(body.updatedResources.userMysekaiGamedata.userId).toBe(own.userMysekaiGamedata.userId);
        expect(text).toContain(`"userId":${SAMPLE_PLAYER_ID}`);
        expect(BigInt(body.updatedResources.userMysekaiSiteHousingLayouts[3].userMysekaiFixtureInstanceId)).toBe(own.userMysekaiSiteHousingLayouts[3].userMysekaiFixtureInstanceId);
        expect(body.updatedResources.now).toBe(SAMPLE.now);
        expect(body.source).toBe("mysekai-ingest");
        expect(body.local_source).toBe("upload");
        expect(Math.abs(Number(body.upload_time) - Date.now())).toBeLessThan(120_000);
      });

      test("filter keeps only those top-level keys and the three fields; ETag, If-None-Match, gzip and zstd", async () => {
        const filtered = parseExact(await (await mysekai(SAMPLE_PLAYER_ID, "?mode=default&filter=updatedResources")).text()) as object;
        expect(Object.keys(filtered)).toEqual(["updatedResources", "upload_time", "source", "local_source"]);
        const first = await mysekai(SAMPLE_PLAYER_ID);
        const etag = first.headers.get("etag")!;
        expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
        expect((await mysekai(SAMPLE_PLAYER_ID, "", { authorization: `Bearer ${token}`, "if-none-match": etag })).status).toBe(304);
        for (const coding of ["gzip", "zstd"]) {
          const compressed = await mysekai(SAMPLE_PLAYER_ID, "", { authorization: `Bearer ${token}`, "accept-encoding": coding });
          expect(compressed.headers.get("content-encoding")).toBe(coding);
          expect((parseExact(await compressed.text()) as { source: string }).source).toBe("mysekai-ingest");
        }
      });

      test("haruki mode, unknown players and regions, bad modes: the error shapes lunabot reads", async () => {
        expect([(await mysekai(SAMPLE_PLAYER_ID, "?mode=haruki")).status, await (await mysekai(SAMPLE_PLAYER_ID, "?mode=haruki")).json()]).toEqual([404, { detail: { haruki_err: "not available on this server" } }]);
        const missing = await mysekai("1234567890123456789");
        expect(missing.status).toBe(404);
        expect(((await missing.json()) as { detail: { local_err: string } }).detail.local_err).toContain("no MySekai data");
        expect((await mysekai(SAMPLE_PLAYER_ID, "?mode=bogus")).status).toBe(400);
        expect((await fetch(`${server.url}/api/xx/user/1/mysekai`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
        expect(await (await fetch(`${server.url}/api/status`)).json()).toEqual({ status: "ok" });
      });

      test("upload_times: lunabot's PUT update_msr_sub then GET with the same [uid, mode] body, answered in order (0 where none); POST; the plain GET lists", async () => {
        // A 19-digit id sent as a JSON number keeps every digit.
        const list = `[["${SAMPLE_PLAYER_ID}", "latest"], [1234567890123456789, "local"], ["${SAMPLE_PLAYER_ID}", "haruki"], [${SAMPLE_PLAYER_ID}, "default"]]`;
        const body = new TextEncoder().encode(list);
        const headers: [string, string][] = [["Authorization", `Bearer ${token}`], ["Content-Type", "application/json"]];
        const poll = (method: string, sent = body, framing?: "chunked") => rawRequest(server.url, { method, path: "/api/jp/mysekai/upload_times", headers, body: sent, framing });
        // Bun hands a GET no body: before the PUT, the GET is refused with what to do.
        const early = (await poll("GET"))!;
        expect(early.status).toBe(400);
        expect(JSON.parse(early.body).detail).toContain("PUT the same [uid, mode] list");
        const put = (await rawRequest(server.url, { method: "PUT", path: "/api/jp/mysekai/update_msr_sub", headers, body }))!;
        expect([put.status, JSON.parse(put.body)]).toEqual([200, { status: "ok" }]);
        for (const method of ["GET", "POST"]) {
          const answer = (await poll(method))!;
          expect(answer.status).toBe(200);
          const times = JSON.parse(answer.body) as number[];
          expect(times).toHaveLength(4);
          expect(times[0]).toBeGreaterThan(Date.now() - 600_000);
          expect(times.slice(1)).toEqual([0, 0, times[0]!]);
        }
        // A GET whose body is not the PUT list (another length, or no length) is never answered for it.
        expect((await poll("GET", new TextEncoder().encode(`[["${SAMPLE_PLAYER_ID}", "latest"]]`)))!.status).toBe(400);
        expect((await poll("GET", body, "chunked"))!.status).toBe(400);
        const older = await fetch(`${server.url}/api/jp/mysekai/upload_times`, { headers: { authorization: `Bearer ${token}` } });
        expect(await older.json()).toEqual([{ id: SAMPLE_PLAYER_ID, upload_time: expect.any(Number) }]);
        for (const bad of [JSON.stringify(Array.from({ length: 1001 }, () => ["1", "latest"])), '[["1"]]', '[["1", "other"]]', '[["x1", "latest"]]', "{", '{"1": "latest"}']) {
          for (const path of ["/api/jp/mysekai/upload_times", "/api/jp/mysekai/update_msr_sub"]) {
            const refused = (await rawRequest(server.url, { method: path.endsWith("sub") ? "PUT" : "POST", path, headers, body: new TextEncoder().encode(bad) }))!;
            expect([path, bad.slice(0, 20), refused.status]).toEqual([path, bad.slice(0, 20), 400]);
            expect(JSON.parse(refused.body).detail).toContain("[uid, mode] pairs");
          }
        }
        const huge = (await rawRequest(server.url, { method: "PUT", path: "/api/jp/mysekai/update_msr_sub", headers, body: new Uint8Array(200 * 1024).fill(0x20), framing: "chunked" }))!;
        expect(huge.status).toBe(413);
      });
    });

    describe("who may read what", () => {
      test("no token, a wrong one and a revoked one get 401; a token for other players reads nothing of this one", async () => {
        expect((await mysekai(SAMPLE_PLAYER_ID, "", {})).status).toBe(401);
        expect((await mysekai(SAMPLE_PLAYER_ID, "", { authorization: "Bearer msk_wrong" })).status).toBe(401);
        const limited = await cli(server, "api-tokens", "add", "other-bot", "--players", "1234567890123456789");
        const asLimited = await mysekai(SAMPLE_PLAYER_ID, "", { authorization: `Bearer ${limited}` });
        expect(asLimited.status).toBe(404);
        const times = await fetch(`${server.url}/api/jp/mysekai/upload_times`, { method: "POST", body: JSON.stringify([[SAMPLE_PLAYER_ID, "latest"]]), headers: { authorization: `Bearer ${limited}` } });
        expect(await times.json()).toEqual([0]);
        const limitedHeaders: [string, string][] = [["Authorization", `Bearer ${limited}`]];
        const polledList = new TextEncoder().encode(`[["${SAMPLE_PLAYER_ID}", "latest"]]`);
        await rawRequest(server.url, { method: "PUT", path: "/api/jp/mysekai/update_msr_sub", headers: limitedHeaders, body: polledList });
        const polled = (await rawRequest(server.url, { method: "GET", path: "/api/jp/mysekai/upload_times", headers: limitedHeaders, body: polledList }))!;
        expect(JSON.parse(polled.body)).toEqual([0]);
        expect(await (await fetch(`${server.url}/api/jp/mysekai/upload_times`, { headers: { authorization: `Bearer ${limited}` } })).json()).toEqual([]);
        const revokable = await cli(server, "api-tokens", "add", "gone");
        expect((await mysekai(SAMPLE_PLAYER_ID, "", { authorization: `Bearer ${revokable}` })).status).toBe(200);
        await cli(server, "api-tokens", "revoke", "gone");
        expect((await mysekai(SAMPLE_PLAYER_ID, "", { authorization: `Bearer ${revokable}` })).status).toBe(401);
        expect(server.output()).not.toContain(token);
        expect(server.output()).toContain("[API] mysekai read token=lunabot");
      });

      test("public reads only after opt-in; every failure is the same 404; key gives a bare value or an object", async () => {
        const get = async (path: string) => {
          const response = await fetch(`${server.url}${path}`);
          return { status: response.status, text: await response.text() };
        };
        const notFound = { status: 404, text: JSON.stringify({ status: 404, message: "not found" }) };
        expect(await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}`)).toEqual(notFound);
        expect(await get("/public/jp/mysekai/1234567890123456789")).toEqual(notFound);
        await cli(server, "players", "public", SAMPLE_PLAYER_ID, "on");
        const whole = await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}`);
        expect(whole.status).toBe(200);
        const body = parseExact(whole.text) as { upload_time: number };
        expect(Math.abs(body.upload_time * 1000 - Date.now())).toBeLessThan(120_000);
        expect(Number(parseExact((await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}?key=upload_time`)).text))).toBe(body.upload_time);
        const two = parseExact((await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}?key=updatedResources,upload_time`)).text) as object;
        expect(Object.keys(two).sort()).toEqual(["updatedResources", "upload_time"]);
        for (const bad of ["a.b", "$where", "noSuchKey", "constructor", "toString", "__proto__"]) expect(await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}?key=${bad}`)).toEqual(notFound);
        expect(await get("/public/jp/mysekai/1234567890123456789")).toEqual(notFound);
        await cli(server, "players", "public", SAMPLE_PLAYER_ID, "off");
        expect(await get(`/public/jp/mysekai/${SAMPLE_PLAYER_ID}`)).toEqual(notFound);
      });

      test("reads are rate-limited per token and per peer: 429 with Retry-After", async () => {
        const { env } = testKeys();
        // A client of its own behind a trusted proxy: a hub's counts are shared, and this file's other reads count.
        const small = await start({ ...env, API_RATE_PER_MINUTE: "3", TRUST_PROXY: "1" });
        const headers = { "x-forwarded-for": "198.51.100.7" };
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await fetch(`${small.url}/api/jp/user/1/mysekai`, { headers })).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
        const limited = await fetch(`${small.url}/api/jp/user/1/mysekai`, { headers });
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      });
    });
  });
}
