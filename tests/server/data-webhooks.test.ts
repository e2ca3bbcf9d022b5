/**
 * Consumer webhooks as a bot uses them: after each new save one empty POST to its URL (server, data type and
 * player filled in, Bearer secret), then the bot pulls that save through the data API. Every new save calls it,
 * pushed or not; a duplicate does not; a failing receiver is retried until it answers and never called twice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zstdDecompressSync } from "node:zlib";
import { makeEncryptedSample, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { openSave } from "../../src/save/open.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, JOB_BACKOFF_MS: "50,100,200" });
let receiver: RecordingServer;

beforeAll(async () => {
  receiver = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
});
afterAll(() => receiver.stop());

const HOOK_PATH = `/{server}/{data_type}/{user_id}`;
const BEARER = "bearer-secret-7f3a9c";

/** A server whose pushes go to the receiver's `/push/<id>`, with one consumer webhook under `/hook/<id>/…`. */
async function serverWithHook(): Promise<{ server: RunningServer; hookPath: string; pushPath: string; hookId: string }> {
  const id = crypto.randomUUID();
  const pushPath = `/push/${id}`;
  const server = await start({ NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${receiver.url}${pushPath}` });
  const added = await ownerCliLastLine(server, "data-webhooks", "add", `${receiver.url}/hook/${id}${HOOK_PATH}?k=url-secret-${id}`, "--bearer", BEARER);
  const hookId = /data webhook (\d+) added/.exec(added)?.[1];
  expect(hookId).toBeDefined();
  return { server, hookPath: `/hook/${id}/jp/mysekai/${SAMPLE_PLAYER_ID}`, pushPath, hookId: hookId! };
}

async function uploadDone(server: RunningServer, body: Uint8Array): Promise<number> {
  const uploadId = crypto.randomUUID();
  expect((await uploadSave(server.url, body, uploadId)).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, saveId, "done", 30_000, `save ${saveId} done`);
  return saveId;
}

describe("consumer webhooks", () => {
  test("each new save: one empty POST, Bearer, region and player filled in; the bot then reads that save", async () => {
    const { server, hookPath, pushPath } = await serverWithHook();
    const token = await ownerCliLastLine(server, "api-tokens", "add", "bot");
    const now = Date.now();
    const first = makeEncryptedSample(pair, { seed: 11, now });
    await uploadDone(server, first);

    const [call, ...more] = receiver.requestsTo(hookPath);
    expect(more).toHaveLength(0);
    expect(call!.method).toBe("POST");
    expect(call!.body.length).toBe(0);
    expect(call!.headers.authorization).toBe(`Bearer ${BEARER}`);
    const read = await fetch(`${server.url}/api/jp/user/${SAMPLE_PLAYER_ID}/mysekai`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
    expect((await read.text()).includes(`"now":${now}`)).toBe(true);

    // The same bytes again are the same save: nothing new to pull.
    expect((await uploadSave(server.url, first, crypto.randomUUID())).status).toBe(200);
    // The same refresh seen later (same drops, other bytes): a new save, not pushed again, but the bot hears of it.
    await uploadDone(server, makeEncryptedSample(pair, { seed: 11, now: now + 60_000 }));
    expect(receiver.requestsTo(hookPath)).toHaveLength(2);
    expect(receiver.requestsTo(pushPath)).toHaveLength(1);
  });

  test("a failing receiver is retried until it answers, then never called again; its URL and secret show nowhere", async () => {
    const { server, hookPath } = await serverWithHook();
    receiver.respond(hookPath, { status: 500, body: `echo ${BEARER}` }, { status: 503 });
    const saveId = await uploadDone(server, makeEncryptedSample(pair, { seed: 12, now: Date.now() }));
    expect(receiver.requestsTo(hookPath)).toHaveLength(3);
    const hooks = (await reads(server).pushes(saveId)).filter((push) => push.channel === "data-webhook");
    expect(hooks.map(({ state, attempts }) => ({ state, attempts }))).toEqual([{ state: "sent", attempts: 3 }]);

    const status = await (await fetch(`${server.url}/`)).text();
    for (const secret of [BEARER, "url-secret", "/hook/"]) {
      expect(server.output()).not.toContain(secret);
      expect(status).not.toContain(secret);
    }
    const listed = await ownerCli(server, "data-webhooks", "list");
    expect(listed.out).toContain("with a bearer secret");
    expect(listed.out).not.toContain(BEARER);
    expect(listed.out).not.toContain("url-secret");
  });

  test("a removed webhook is not called; a save of no known player calls none", async () => {
    const { server, hookPath, hookId } = await serverWithHook();
    const anonymous = await fetch(`${server.url}/uploadSaveData`, {
      method: "POST",
      body: makeEncryptedSample(pair, { seed: 13, now: Date.now() }),
      headers: { "X-Upload-Id": "anonymous-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1" },
    });
    expect(anonymous.status).toBe(200);
    const anonymousSave = (await reads(server).saveOfUpload("anonymous-1"))!;
    await jobReaches(server, anonymousSave, "done", 30_000, "the anonymous save done");
    expect((await reads(server).pushes(anonymousSave)).filter((push) => push.channel === "data-webhook")).toEqual([]);

    expect((await ownerCli(server, "data-webhooks", "remove", hookId)).code).toBe(0);
    await uploadDone(server, makeEncryptedSample(pair, { seed: 14, now: Date.now() }));
    expect(receiver.requestsTo(hookPath)).toHaveLength(0);
    expect((await ownerCli(server, "data-webhooks", "list")).out).toContain("no data webhooks");
  });

  test("hub-format pushes carry the save: raw (the encrypted body as received) and json-zstd decode back into it; a check URL's 404 sends nothing", async () => {
    const id = crypto.randomUUID();
    const server = await start({ NOTIFY_DEFAULT: "none" });
    const check = `${receiver.url}/check/${id}/{server}/{user_id}`;
    const add = (payload: string, extra: string[] = []) => ownerCliLastLine(server, "data-webhooks", "add", `${receiver.url}/${payload}/${id}${HOOK_PATH}`, "--payload", payload, "--bearer", BEARER, ...extra);
    expect(await add("raw")).toContain("the save as raw");
    expect(await add("json-zstd", ["--check-url", check])).toContain("when its check URL answers 200");
    const now = Date.now();
    const save = makeEncryptedSample(pair, { seed: 15, now });
    const saveId = await uploadDone(server, save);
    const [raw, ...moreRaw] = receiver.requestsTo(`/raw/${id}/jp/mysekai/${SAMPLE_PLAYER_ID}`);
    const [zstd, ...moreZstd] = receiver.requestsTo(`/json-zstd/${id}/jp/mysekai/${SAMPLE_PLAYER_ID}`);
    expect([moreRaw.length, moreZstd.length]).toEqual([0, 0]);
    expect(receiver.requestsTo(`/check/${id}/jp/${SAMPLE_PLAYER_ID}`).map((call) => [call.method, call.headers.authorization])).toEqual([["GET", `Bearer ${BEARER}`]]);
    for (const [call, format] of [[raw!, "raw"], [zstd!, "json-zstd"]] as const) {
      expect(call.headers["x-haruki-upload-data-format"]).toBe(format);
      expect(call.headers.authorization).toBe(`Bearer ${BEARER}`);
    }
    // The receiver's side: raw is the upload's bytes, which open with the key into the same JSON json-zstd carries.
    expect(Buffer.from(raw!.body).equals(Buffer.from(save))).toBe(true);
    const opened = openSave(raw!.body, [{ label: "test", key: pair.key, iv: pair.iv }], { json: true });
    if (opened.kind !== "save") throw new Error(`the raw push does not open: ${opened.kind}`);
    const json = new TextDecoder().decode(zstdDecompressSync(zstd!.body));
    expect(json).toBe(opened.json!);
    expect(json).toContain(`"now":${now}`);
    expect((await reads(server).pushes(saveId)).filter((push) => push.channel === "data-webhook" && push.state === "sent")).toHaveLength(2);

    // The receiver does not know the player: the check answers 404 and nothing is sent, nor retried.
    receiver.respond(`/check/${id}/jp/${SAMPLE_PLAYER_ID}`, { status: 404 });
    const unknown = await uploadDone(server, makeEncryptedSample(pair, { seed: 16, now: now + 1 }));
    expect(receiver.requestsTo(`/json-zstd/${id}/jp/mysekai/${SAMPLE_PLAYER_ID}`)).toHaveLength(1);
    expect(receiver.requestsTo(`/raw/${id}/jp/mysekai/${SAMPLE_PLAYER_ID}`)).toHaveLength(2);
    const refused = (await reads(server).pushes(unknown)).find((push) => push.channel === "data-webhook" && push.state !== "sent")!;
    expect(refused.attempts).toBe(1);
    expect(refused.last_error).toContain("check URL answered 404");
    for (const secret of [BEARER, `/check/${id}`, `/raw/${id}`]) expect(server.output()).not.toContain(secret);
    const listed = (await ownerCli(server, "data-webhooks", "list")).out;
    expect(listed).toContain("json-zstd after a check");
    expect(listed).not.toContain(BEARER);
    const refusedPayload = await ownerCli(server, "data-webhooks", "add", `${receiver.url}/x/{user_id}`, "--payload", "gzip");
    expect([refusedPayload.code, refusedPayload.err.includes("--payload takes raw or json-zstd")]).toEqual([1, true]);
  });

  test("the CLI refuses a URL a bot could not use", async () => {
    const server = await start({ NOTIFY_DEFAULT: "none" });
    for (const url of ["ftp://bot.example/{user_id}", "https://bot.example/new-save", "not a url {user_id}"]) {
      const added = await ownerCli(server, "data-webhooks", "add", url);
      expect(added.code).toBe(1);
      expect(added.err).toContain("data-webhooks add <url>");
    }
    expect((await ownerCli(server, "data-webhooks", "list")).out).toContain("no data webhooks");
  });
});
