/**
 * Hub mode (issue 23, point 3): two services on one PostgreSQL (DATABASE_URL) and one bucket (ARCHIVE_URL), built
 * in this process as two machines would run them. Whatever one accepts, the other can serve; work is done once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { readdirSync } from "node:fs";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { pgReads } from "../helpers/store-reads.ts";
import { swiftBucket, swiftSkipReason } from "../helpers/swift.ts";

const ADMIN_TOKEN = "hub-admin-token-0123456789";
/** Linked by the CLI in the last test only: the others upload tokenless for PLAYER_ID. */
const LINKED_PLAYER = "7000000000000000003";
const API_RATE = 10;
const HOOK = "/push";
const start = serversForThisFile();
const skip = POSTGRES_MISSING ?? swiftSkipReason;

describe.skipIf(skip !== null)("two services on one PostgreSQL and one bucket", () => {
  const { pair, env: keys } = testKeys();
  let url: string;
  let sql: postgres.Sql;
  let pushes: RecordingServer;
  let a: RunningServer;
  let b: RunningServer;
  let client: Bun.S3Client;

  beforeAll(async () => {
    const [database, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
    url = database;
    pushes = await startRecordingServer();
    const s3 = { S3_ENDPOINT: bucket.endpoint, S3_REGION: bucket.region, S3_ACCESS_KEY_ID: bucket.accessKeyId, S3_SECRET_ACCESS_KEY: bucket.secretAccessKey };
    const env = { ...keys, ...s3, ...hubSettings(url), ARCHIVE_URL: `s3://${bucket.bucket}/hub`, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${pushes.url}${HOOK}`, ADMIN_TOKEN, API_RATE_PER_MINUTE: String(API_RATE) };
    // Started together: both migrate under the advisory lock, one of them first.
    [a, b] = await Promise.all([start(env), start(env)]);
    sql = postgres(url, { max: 2, onnotice: () => {} });
    client = new Bun.S3Client({ ...bucket });
  }, 180_000);
  afterAll(async () => {
    await sql?.end();
    await pushes?.stop();
  });

  const saveOfUpload = (uploadId: string) => pgReads(sql).saveOfUpload(uploadId);
  const jobDone = async (saveId: number) => (await pgReads(sql).job(saveId))?.state === "done";
  const pushesOf = () => pushes.requestsTo(HOOK).length;
  /** The owner CLI as a hub's owner runs it: any machine, the same DATABASE_URL and LINK_KEY, no data folder of a service. */
  const cli = async (...args: string[]) => {
    const { code, out, err } = await ownerCliWith(hubSettings(url), a, ...args);
    return { code, out: out.trim(), err };
  };

  test("an upload to A is archived once in the bucket, pushed once; B serves its maps and the data API", async () => {
    expect((await uploadSave(a.url, encryptedSave(pair), "hub-1")).status).toBe(200);
    const saveId = (await saveOfUpload("hub-1"))!;
    await eventually(() => jobDone(saveId), 60_000, "the save's job done");
    const archives = (await pgReads(sql).archives()).filter((archive) => archive.save_id === saveId);
    expect(archives).toHaveLength(1);
    const { rel_path: relPath, token, files } = archives[0]!;
    const listed = await client.list({ prefix: "hub/archive/" });
    const keys = (listed.contents ?? []).map((object) => object.key);
    expect(keys.filter((key) => key.endsWith("/save.bin"))).toEqual([`hub/archive/${relPath}/save.bin`]);
    expect(pushesOf()).toBe(1);

    const png = files.find((name) => name.endsWith(".png"))!;
    const map = await fetch(`${b.url}/maps/${token}/${png}`);
    expect([map.status, map.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(new Uint8Array(await map.arrayBuffer())).toEqual(new Uint8Array(await client.file(`hub/archive/${relPath}/${png}`).arrayBuffer()));

    // An API token made by the owner's CLI on any machine: its row is in the shared database.
    const added = await cli("api-tokens", "add", "bot");
    expect(added.code).toBe(0);
    const apiToken = added.out.split("\n").at(-1)!;
    const read = await fetch(`${b.url}/api/jp/user/${PLAYER_ID}/mysekai`, { headers: { authorization: `Bearer ${apiToken}` } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ updatedResources: expect.anything() });
  }, 90_000);

  test("the owner CLI on a hub: retry and reprocess reach the shared queue, and the job list is the shared one; no SQLite file opened", async () => {
    const saveId = (await pgReads(sql).jobs()).find((job) => job.save_id !== null)!.save_id!;
    const pushed = pushesOf();
    expect(await cli("reprocess", String(saveId))).toMatchObject({ code: 0, out: `save ${saveId} queued for generate (draw and archive) → notify (no push)` });
    await eventually(() => jobDone(saveId), 60_000, "the reprocessed save's job done");
    expect(pushesOf()).toBe(pushed);
    expect(await cli("retry", "999999")).toMatchObject({ code: 1 });
    const jobs = await cli("jobs");
    expect(jobs).toMatchObject({ code: 0, err: "" });
    expect(jobs.out).toMatch(new RegExp(`save ${saveId}\\s*│\\s*${PLAYER_ID}\\s*│\\s*done\\s*│\\s*done`));
    expect(await cli("jobs", "--state", "failed")).toMatchObject({ code: 0, out: "no failed jobs" });
    expect(readdirSync(a.dataDir).filter((name) => name.includes("sqlite"))).toEqual([]);
  }, 90_000);

  test("an owner session opened on A works on B, and logging out on B ends it on A", async () => {
    const login = await fetch(`${a.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      headers: { "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    const cookie = login.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    expect(cookie).toContain("=");
    expect((await fetch(`${b.url}/`, { redirect: "manual" })).status).not.toBe(200);
    expect((await fetch(`${b.url}/`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    const logout = await fetch(`${b.url}/logout`, { method: "POST", headers: { cookie, "sec-fetch-site": "same-origin" }, redirect: "manual" });
    expect(logout.status).toBe(303);
    expect((await fetch(`${a.url}/`, { headers: { cookie }, redirect: "manual" })).status).not.toBe(200);
  }, 30_000);

  test("lunabot's poll: its PUT update_msr_sub reaches A, its GET with the same body B, answered in order from the list in the store", async () => {
    const added = await cli("api-tokens", "add", "lunabot");
    expect(added.code).toBe(0);
    const headers: [string, string][] = [["Authorization", `Bearer ${added.out.split("\n").at(-1)!}`], ["Content-Type", "application/json"]];
    const body = new TextEncoder().encode(JSON.stringify([["1234567890123456789", "latest"], [PLAYER_ID, "latest"]]));
    const put = (await rawRequest(a.url, { method: "PUT", path: "/api/jp/mysekai/update_msr_sub", headers, body }))!;
    expect([put.status, put.body]).toEqual([200, '{"status":"ok"}']);
    const poll = (await rawRequest(b.url, { method: "GET", path: "/api/jp/mysekai/upload_times", headers, body }))!;
    expect(poll.status).toBe(200);
    const [none, latest] = JSON.parse(poll.body) as number[];
    expect(none).toBe(0);
    expect(latest).toBe((await pgReads(sql).lastReceivedAt(PLAYER_ID))!);
  }, 30_000);

  test("the data API's rate is counted once over both processes: reads spread over A and B get 429 after the rate", async () => {
    const added = await cli("api-tokens", "add", "rate-bot");
    expect(added.code).toBe(0);
    const headers = { authorization: `Bearer ${added.out.split("\n").at(-1)!}` };
    let allowed = 0;
    for (let i = 0; i < 3 * API_RATE; i++) {
      const answer = await fetch(`${[a, b][i % 2]!.url}/api/jp/user/1234567890123456789/mysekai`, { headers });
      if (answer.status === 429) break;
      expect(answer.status).toBe(404);
      allowed += 1;
    }
    // A fresh token's window: at most the rate in all (fewer when this peer's own window was already in use).
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThanOrEqual(API_RATE);
  }, 30_000);

  test("the same save sent to A and B at once: one save, one job, one push", async () => {
    const before = pushesOf();
    const save = encryptedSave(pair);
    const answers = await Promise.all([uploadSave(a.url, save, "race-a"), uploadSave(b.url, save, "race-b")]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [fromA, fromB] = [await saveOfUpload("race-a"), await saveOfUpload("race-b")];
    expect(fromA).toBeDefined();
    expect(fromB).toBe(fromA!);
    await eventually(() => jobDone(fromA!), 60_000, "the save's job done");
    expect((await pgReads(sql).pushes(fromA!)).map((push) => push.state)).toEqual(["sent"]);
    expect(pushesOf()).toBe(before + 1);
    expect((await pgReads(sql).jobs()).filter((job) => job.save_id === fromA)).toHaveLength(1);
  }, 90_000);

  test("a consumer webhook added by the CLI on a hub is called once for a new save, by whichever process draws it", async () => {
    const added = await cli("data-webhooks", "add", `${pushes.url}/hook/{server}/{data_type}/{user_id}`, "--bearer", "hub-bearer-secret");
    expect(added.code).toBe(0);
    const hookPath = `/hook/jp/mysekai/${PLAYER_ID}`;
    const before = pushes.requestsTo(hookPath).length;
    expect((await uploadSave(b.url, encryptedSave(pair), "hub-hook")).status).toBe(200);
    const saveId = (await saveOfUpload("hub-hook"))!;
    await eventually(() => jobDone(saveId), 60_000, "the save's job done");
    await eventually(() => pushes.requestsTo(hookPath).length > before, 30_000, "the webhook called");
    const calls = pushes.requestsTo(hookPath).slice(before);
    expect(calls.map((call) => [call.method, call.headers.authorization, call.body.byteLength])).toEqual([["POST", "Bearer hub-bearer-secret", 0]]);
    const rows = (await pgReads(sql).pushes(saveId)).filter((push) => push.channel === "data-webhook");
    expect(rows.map((row) => row.state)).toEqual(["sent"]);
  }, 90_000);

  test("a link sealed anywhere shows on every process: a player's link the CLI made, the setup token A rotated, on A's and B's /setup", async () => {
    const owner = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const setupPage = async (server: RunningServer) => (await fetch(`${server.url}/setup`, { headers: owner })).text();
    const setupTokenIn = (html: string) => /\/setup\/([A-Za-z0-9_-]{16,})\//.exec(html)?.[1];
    const added = await cli("players", "add", LINKED_PLAYER, "--name", "Mizuki");
    expect(added.code).toBe(0);
    const link = /\/p\/([A-Za-z0-9_-]+)/.exec(added.out)![1]!;
    for (const server of [a, b]) expect(await setupPage(server)).toContain(`${server.url}/p/${link}`);

    const before = setupTokenIn(await setupPage(b));
    const rotated = await fetch(`${a.url}/setup/rotate`, { method: "POST", headers: owner, redirect: "manual" });
    expect(rotated.status).toBe(303);
    const after = setupTokenIn(await setupPage(a));
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(setupTokenIn(await setupPage(b))).toBe(after);
    // No process, the CLI's included, made a key file of its own beside LINK_KEY.
    expect([...readdirSync(a.dataDir), ...readdirSync(b.dataDir)].filter((name) => name.startsWith("link.key"))).toEqual([]);
  }, 60_000);
});
