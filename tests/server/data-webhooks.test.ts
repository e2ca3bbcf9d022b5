/**
 * Consumer webhooks as a bot uses them: after each new save one empty POST to its URL (server, data type and
 * player filled in, Bearer secret), then the bot pulls that save through the data API. Every new save calls it,
 * pushed or not; a duplicate does not; a failing receiver is retried until it answers and never called twice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { jobOfSave, one } from "../helpers/db.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
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
  const saveId = one<{ save_id: number }>(server, "SELECT save_id FROM upload_tasks WHERE upload_id = ?", uploadId)!.save_id;
  await eventually(() => jobOfSave(server, saveId)?.state === "done", 30_000, `save ${saveId} done`);
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
    const row = one<{ state: string; attempts: number }>(server, "SELECT state, attempts FROM deliveries WHERE save_id = ? AND channel = 'data-webhook'", saveId)!;
    expect(row).toEqual({ state: "sent", attempts: 3 });

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
    const anonymousSave = one<{ save_id: number }>(server, "SELECT save_id FROM upload_tasks WHERE upload_id = 'anonymous-1'")!.save_id;
    await eventually(() => jobOfSave(server, anonymousSave)?.state === "done", 30_000, "the anonymous save done");
    expect(one(server, "SELECT id FROM deliveries WHERE save_id = ? AND channel = 'data-webhook'", anonymousSave)).toBeUndefined();

    expect((await ownerCli(server, "data-webhooks", "remove", hookId)).code).toBe(0);
    await uploadDone(server, makeEncryptedSample(pair, { seed: 14, now: Date.now() }));
    expect(receiver.requestsTo(hookPath)).toHaveLength(0);
    expect((await ownerCli(server, "data-webhooks", "list")).out).toContain("no data webhooks");
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
