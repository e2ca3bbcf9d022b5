/**
 * Uploads as the userscript and the Android app send them: single POSTs and chunks, the contract's header rules
 * and caps, idempotency, and a 200 meaning the save and its job are committed. The tests whose guarantee lives in
 * the store run on both deployments: one process on SQLite, and hub mode (PostgreSQL + a Swift bucket); the header
 * errors, answered before the store is reached, once on SQLite. The upload rules themselves (resends, reused ids,
 * players under one id, totals, expiry) run on both stores in tests/contract/upload-rules.*.contract.test.ts and
 * ingest-store.*.contract.test.ts, so the hub's half shows only what HTTP adds.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { connect } from "node:net";
import { MAX_CHUNK_BYTES, MAX_CHUNKS, MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import { deployments, sqliteHalfOnly } from "../helpers/deployments.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";

const PLAYER = "7488393821744390161";
const ORIGINAL_URL = `https://game.example/api/user/${PLAYER}/mysekai?isForceAllReloadOnlyMysekai=True&secret=abc`;

// Stopping a hub service ends its connections: more than the default 5 s on a loaded machine.
setDefaultTimeout(30_000);
const start = serversForThisFile();

let counter = 0;
const newId = () => `up-${Date.now().toString(36)}-${counter++}`;

function postTo(server: RunningServer, body: Uint8Array, headers: Record<string, string>) {
  return fetch(`${server.url}/uploadSaveData`, { method: "POST", body, headers });
}

function chunkHeaders(id: string, index: number, total: number, extra: Record<string, string> = {}) {
  return { "X-Upload-Id": id, "X-Chunk-Index": String(index), "X-Total-Chunks": String(total), ...extra };
}

async function expectStatus(response: Response, status: number, text?: RegExp) {
  const body = await response.text();
  expect({ status: response.status, body }).toMatchObject({ status });
  if (text) expect(body).toMatch(text);
}

function sha(bytes: Uint8Array) {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("header rules (contract error table at its boundaries), answered before the store: one process on SQLite", () => {
  let server: RunningServer;
  beforeAll(async () => void (server = await start()));
  const post = (body: Uint8Array, headers: Record<string, string>) => postTo(server, body, headers);

  const cases: [string, Record<string, string>, number, RegExp][] = [
    ["missing X-Upload-Id", { "X-Chunk-Index": "0", "X-Total-Chunks": "1" }, 400, /X-Upload-Id is required/],
    ["65-char id", chunkHeaders("a".repeat(65), 0, 1), 400, /X-Upload-Id must match/],
    ["id with a dot", chunkHeaders("bad.id", 0, 1), 400, /X-Upload-Id must match/],
    ["missing X-Total-Chunks", { "X-Upload-Id": "x1", "X-Chunk-Index": "0" }, 400, /X-Total-Chunks is required/],
    [`${MAX_CHUNKS + 1} chunks`, chunkHeaders("x2", 0, MAX_CHUNKS + 1), 400, new RegExp(`X-Total-Chunks must be 1\\.\\.${MAX_CHUNKS}`)],
    ["0 chunks", chunkHeaders("x3", 0, 0), 400, new RegExp(`X-Total-Chunks must be 1\\.\\.${MAX_CHUNKS}`)],
    ["total not an integer", chunkHeaders("x4", 0, 1, { "X-Total-Chunks": "2.5" }), 400, /X-Total-Chunks must be an integer/],
    ["missing X-Chunk-Index", { "X-Upload-Id": "x5", "X-Total-Chunks": "1" }, 400, /X-Chunk-Index is required/],
    ["index equal to total", chunkHeaders("x6", 3, 3), 400, /X-Chunk-Index must be 0\.\.2/],
    ["negative index", chunkHeaders("x7", -1, 3), 400, /X-Chunk-Index must be 0\.\.2/],
    ["index not an integer", chunkHeaders("x8", 0, 2, { "X-Chunk-Index": "one" }), 400, /X-Chunk-Index must be an integer/],
  ];
  for (const [name, headers, status, reason] of cases) {
    test(`${name} → ${status}`, async () => {
      await expectStatus(await post(randomBytes(16), headers), status, reason);
    });
  }

  test("an empty body is refused", async () => {
    await expectStatus(await post(new Uint8Array(0), chunkHeaders(newId(), 0, 1)), 400, /body is empty/);
  });
});

for (const deployment of deployments("uploads")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    /** Rules the contract suites prove on PostgreSQL: on the hub only what HTTP alone shows runs (see sqliteHalfOnly). */
    const notOnHub = sqliteHalfOnly(deployment);
    let settings: Record<string, string> = {};
    const startIn = async (env: Record<string, string>) => start({ ...settings, ...env });
    let server: RunningServer;
    beforeAll(async () => {
      settings = await deployment.settings();
      server = await startIn({ UPLOAD_TTL_MINUTES: "0.01" });
    }, 180_000);
    afterAll(() => deployment.end());

    const post = (body: Uint8Array, headers: Record<string, string>) => postTo(server, body, headers);
    const store = (where: RunningServer = server) => reads(where, deployment);
    const saveRow = (hash: string) => store().saveBySha(hash);
    const jobsOf = async (saveId: number) => (await store().jobs()).filter((job) => job.save_id === saveId).length;
    const savesOf = async (hash: string, where: RunningServer = server) => (await store(where).savesWithJobs()).filter((save) => save.sha256 === hash).length;
    /** The chunks an upload's tasks still hold. */
    const chunksOf = async (uploadId: string) => (await store().uploadTasks(uploadId)).flatMap((task) => task.chunks).length;

    describe("single POST", () => {
      test("200 OK and the save and its job are committed in the store", async () => {
        const body = randomBytes(200 * 1024);
        await expectStatus(await post(body, chunkHeaders(newId(), 0, 1, { "X-Original-Url": ORIGINAL_URL })), 200, /^OK$/);
        const row = await saveRow(sha(body));
        expect(row).toMatchObject({ player_id: PLAYER, source: "upload", size: body.byteLength });
        expect(await store().playerIdType(row!.id)).toBe("text");
        expect(await jobsOf(row!.id)).toBe(1);
      });

      test("the player id is unknown without X-Original-Url or when the segment is not digits", async () => {
        const a = randomBytes(1000);
        const b = randomBytes(1000);
        await expectStatus(await post(a, chunkHeaders(newId(), 0, 1)), 200);
        await expectStatus(await post(b, chunkHeaders(newId(), 0, 1, { "X-Original-Url": "https://x/api/user/abc/mysekai" })), 200);
        expect((await saveRow(sha(a)))?.player_id).toBe("unknown");
        expect((await saveRow(sha(b)))?.player_id).toBe("unknown");
      });

      test("logs name the upload and player but never the full URL or the body", async () => {
        const id = newId();
        await expectStatus(await post(randomBytes(512), chunkHeaders(id, 0, 1, { "X-Original-Url": ORIGINAL_URL })), 200);
        // Log lines are written just after the answer.
        await server.waitForOutput(`upload=${id}`);
        const line = server.output().split("\n").find((l) => l.includes(`upload=${id}`));
        expect(line).toMatch(/^\[UPLOAD\] save stored .*chunk=1\/1 .*player=7488393821744390161 save=\d+/);
        expect(server.output()).not.toContain("secret=abc");
        expect(server.output()).not.toContain("game.example");
      });
    });

    describe("paths and player id", () => {
      test("/uploadMySekai (the design card's name) is the same endpoint", async () => {
        const body = randomBytes(2048);
        const response = await fetch(`${server.url}/uploadMySekai`, { method: "POST", body, headers: chunkHeaders(newId(), 0, 1, { "X-Original-Url": ORIGINAL_URL }) });
        await expectStatus(response, 200, /^OK$/);
        expect((await saveRow(sha(body)))?.player_id).toBe(PLAYER);
      });

      notOnHub("a chunk joins only a task whose first chunk named the same player (or both none)", async () => {
        const id = newId();
        const parts = [randomBytes(1008), randomBytes(1008)];
        const asPlayer = { "X-Original-Url": ORIGINAL_URL };
        // A stranger's chunk 1 (no player) never completes the player's upload, nor a player's chunk an anonymous one.
        await expectStatus(await post(parts[0]!, chunkHeaders(id, 0, 2, asPlayer)), 200);
        await expectStatus(await post(randomBytes(16), chunkHeaders(id, 1, 2)), 200);
        await expectStatus(await post(randomBytes(16), chunkHeaders(id, 1, 2, { "X-Original-Url": "https://x/api/user/me/mysekai" })), 200);
        await expectStatus(await post(parts[1]!, chunkHeaders(id, 1, 2, asPlayer)), 200);
        expect((await saveRow(sha(Buffer.concat(parts))))?.player_id).toBe(PLAYER);
        expect((await store().uploadTasks(id)).filter((task) => task.completed)).toHaveLength(1);
        // Anonymous chunks make an anonymous save of their own.
        const anonymous = [randomBytes(1008), randomBytes(1008)];
        const other = newId();
        await expectStatus(await post(anonymous[0]!, chunkHeaders(other, 0, 2)), 200);
        await expectStatus(await post(randomBytes(16), chunkHeaders(other, 1, 2, asPlayer)), 200);
        await expectStatus(await post(anonymous[1]!, chunkHeaders(other, 1, 2)), 200);
        expect((await saveRow(sha(Buffer.concat(anonymous))))?.player_id).toBe("unknown");
      });
    });

    describe("header rules: accepted at the boundaries", () => {
      test("64-char id, 10 chunks and index 9 are accepted", async () => {
        const id = "b".repeat(64);
        await expectStatus(await post(randomBytes(16), chunkHeaders(id, 9, 10)), 200, /^OK$/);
        expect(await chunksOf(id)).toBe(1);
      });
    });

    describe("size limits", () => {
      test("a chunk of exactly 1,048,576 bytes is accepted", async () => {
        const body = randomBytes(MAX_CHUNK_BYTES);
        await expectStatus(await post(body, chunkHeaders(newId(), 0, 1)), 200);
        expect((await saveRow(sha(body)))?.size).toBe(MAX_CHUNK_BYTES);
      });

      test("a chunk of 1,048,577 bytes is 413", async () => {
        const before = await store().saveCount();
        await expectStatus(await post(randomBytes(MAX_CHUNK_BYTES + 1), chunkHeaders(newId(), 0, 1)), 413, new RegExp(`chunk exceeds ${MAX_CHUNK_BYTES} bytes`));
        expect(await store().saveCount()).toBe(before);
      });

      notOnHub("chunks adding up to 1,048,577 bytes are 413; up to 1,048,576 they complete", async () => {
        const id = newId();
        const half = MAX_UPLOAD_BYTES / 2;
        await expectStatus(await post(randomBytes(half), chunkHeaders(id, 0, 2)), 200);
        await expectStatus(await post(randomBytes(half + 1), chunkHeaders(id, 1, 2)), 413, new RegExp(`upload exceeds ${MAX_UPLOAD_BYTES} bytes in total`));
        const first = randomBytes(half);
        const last = randomBytes(half);
        await expectStatus(await post(first, chunkHeaders(id, 0, 2)), 200);
        await expectStatus(await post(last, chunkHeaders(id, 1, 2)), 200);
        expect((await saveRow(sha(Buffer.concat([first, last]))))?.size).toBe(MAX_UPLOAD_BYTES);
      });
    });

    describe("chunked uploads", () => {
      notOnHub("out-of-order chunks merge in index order", async () => {
        const save = randomBytes(300 * 1024);
        const parts = [save.subarray(0, 100_000), save.subarray(100_000, 200_000), save.subarray(200_000)];
        const id = newId();
        for (const index of [2, 0, 1]) {
          await expectStatus(await post(parts[index]!, chunkHeaders(id, index, 3, { "X-Original-Url": ORIGINAL_URL })), 200);
        }
        expect(await saveRow(sha(save))).toMatchObject({ player_id: PLAYER, size: save.byteLength });
        expect(await chunksOf(id)).toBe(0);
      });

      notOnHub("a resent chunk replaces the earlier bytes and is counted once", async () => {
        const id = newId();
        await expectStatus(await post(randomBytes(700_000), chunkHeaders(id, 0, 2)), 200);
        const first = randomBytes(500_000);
        const second = randomBytes(500_000);
        await expectStatus(await post(first, chunkHeaders(id, 0, 2)), 200);
        await expectStatus(await post(second, chunkHeaders(id, 1, 2)), 200);
        expect((await saveRow(sha(Buffer.concat([first, second]))))?.size).toBe(1_000_000);
      });

      notOnHub("a later chunk with another total is 400", async () => {
        const id = newId();
        await expectStatus(await post(randomBytes(10), chunkHeaders(id, 0, 3)), 200);
        await expectStatus(await post(randomBytes(10), chunkHeaders(id, 1, 4)), 400, /X-Total-Chunks must stay 3/);
      });

      notOnHub("a chunk resent after its upload completed is 200 and creates nothing", async () => {
        const id = newId();
        const parts = [randomBytes(1000), randomBytes(1000)];
        for (const [index, part] of parts.entries()) await expectStatus(await post(part, chunkHeaders(id, index, 2)), 200);
        const saves = await store().saveCount();
        await expectStatus(await post(parts[1]!, chunkHeaders(id, 1, 2)), 200, /^OK$/);
        expect(await store().saveCount()).toBe(saves);
        expect((await store().uploadTasks(id)).filter((task) => !task.completed)).toHaveLength(0);
        await server.waitForOutput(new RegExp(`\\[UPLOAD\\] resend of a completed upload upload=${id} chunk=2/2`));
      });

      notOnHub("other bytes under a completed upload's id are a save of their own", async () => {
        const id = newId();
        const first = randomBytes(1000);
        const second = randomBytes(1000);
        await expectStatus(await post(first, chunkHeaders(id, 0, 1)), 200);
        await expectStatus(await post(second, chunkHeaders(id, 0, 1)), 200, /^OK$/);
        expect(await saveRow(sha(first))).toBeDefined();
        expect(await saveRow(sha(second))).toBeDefined();
      });

      notOnHub("a fixed id (demo12345) keeps every distinct save, chunked or not, and a player's chunks never join another's", async () => {
        const other = "1234567890123456789";
        const otherUrl = `https://game.example/api/user/${other}/mysekai`;
        const saves = [randomBytes(3000), randomBytes(3000), randomBytes(3000)];
        await expectStatus(await post(saves[0]!, chunkHeaders("demo12345", 0, 1, { "X-Original-Url": ORIGINAL_URL })), 200);
        // Two players upload chunked saves under the same fixed id at the same time.
        await expectStatus(await post(saves[1]!.subarray(0, 1500), chunkHeaders("demo12345", 0, 2, { "X-Original-Url": ORIGINAL_URL })), 200);
        await expectStatus(await post(saves[2]!.subarray(0, 1500), chunkHeaders("demo12345", 0, 2, { "X-Original-Url": otherUrl })), 200);
        await expectStatus(await post(saves[2]!.subarray(1500), chunkHeaders("demo12345", 1, 2, { "X-Original-Url": otherUrl })), 200);
        await expectStatus(await post(saves[1]!.subarray(1500), chunkHeaders("demo12345", 1, 2, { "X-Original-Url": ORIGINAL_URL })), 200);
        expect((await Promise.all(saves.map((save) => saveRow(sha(save))))).map((row) => row?.player_id)).toEqual([PLAYER, PLAYER, other]);
      });

      notOnHub("the same body under another upload id is one save and one job", async () => {
        const body = randomBytes(50_000);
        await expectStatus(await post(body, chunkHeaders(newId(), 0, 1)), 200);
        await expectStatus(await post(body, chunkHeaders(newId(), 0, 1)), 200, /^OK$/);
        const row = (await saveRow(sha(body)))!;
        expect(await savesOf(row.sha256)).toBe(1);
        expect(await jobsOf(row.id)).toBe(1);
      });

      notOnHub("an upload left incomplete past UPLOAD_TTL_MINUTES is deleted with its chunks", async () => {
        const id = newId();
        await expectStatus(await post(randomBytes(1000), chunkHeaders(id, 0, 2)), 200);
        expect(await chunksOf(id)).toBe(1);
        await eventually(async () => (await store().uploadTasks(id)).length === 0, 5000, "the sweep");
        expect(await chunksOf(id)).toBe(0);
      });
    });

    describe("concurrency", () => {
      test("many chunked uploads at once, chunks interleaved, all complete intact", async () => {
        const uploads = Array.from({ length: 12 }, () => ({ id: newId(), body: randomBytes(120_000) }));
        const requests = uploads.flatMap(({ id, body }) =>
          [0, 1, 2].map((index) => () => post(body.subarray(index * 40_000, (index + 1) * 40_000), chunkHeaders(id, index, 3))),
        );
        requests.sort(() => Math.random() - 0.5);
        const responses = await Promise.all(requests.map((send) => send()));
        expect(responses.map((r) => r.status)).toEqual(requests.map(() => 200));
        for (const { body } of uploads) expect((await saveRow(sha(body)))?.size).toBe(120_000);
      });

      test("the same chunk of one upload sent concurrently still yields one save", async () => {
        const id = newId();
        const body = randomBytes(60_000);
        const sends = [0, 1, 0, 1, 0, 1].map((index) => post(body.subarray(index * 30_000, (index + 1) * 30_000), chunkHeaders(id, index, 2)));
        const responses = await Promise.all(sends);
        expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(await savesOf(sha(body))).toBe(1);
      });
    });

    describe("UPLOAD_TOKEN", () => {
      const TOKEN = "upload-token-3f9c2e";
      let guarded: RunningServer;
      beforeAll(async () => {
        guarded = await startIn({ UPLOAD_TOKEN: TOKEN });
      });

      const postGuarded = (body: Uint8Array, headers: Record<string, string>) =>
        fetch(`${guarded.url}/uploadSaveData`, { method: "POST", body, headers });

      test("without it or with a wrong one: 401 and nothing stored; with it: 200", async () => {
        const body = randomBytes(1000);
        await expectStatus(await postGuarded(body, chunkHeaders(newId(), 0, 1)), 401, /^missing or wrong upload token$/);
        await expectStatus(await postGuarded(body, chunkHeaders(newId(), 0, 1, { "X-Upload-Token": `${TOKEN}x` })), 401);
        await expectStatus(await postGuarded(body, chunkHeaders(newId(), 0, 1, { "X-Upload-Token": "" })), 401);
        const stored = () => savesOf(sha(body), guarded);
        expect(await stored()).toBe(0);
        await expectStatus(await postGuarded(body, chunkHeaders(newId(), 0, 1, { "X-Upload-Token": TOKEN })), 200, /^OK$/);
        expect(await stored()).toBe(1);
        expect(guarded.output()).not.toContain(TOKEN);
      });

      test("401 comes before the body is read: a declared 1,000,000-byte body that never arrives is answered at once", async () => {
        const url = new URL(guarded.url);
        const started = performance.now();
        const answer = await new Promise<string>((resolve, reject) => {
          let text = "";
          const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
            socket.write(
              "POST /uploadSaveData HTTP/1.1\r\nHost: x\r\nX-Upload-Id: tok1\r\nX-Chunk-Index: 0\r\nX-Total-Chunks: 1\r\n" +
                "Content-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n",
            );
          });
          socket.on("data", (data) => {
            text += data.toString();
            if (text.includes("missing or wrong upload token")) {
              socket.destroy();
              resolve(text);
            }
          });
          socket.on("error", reject);
          setTimeout(() => {
            socket.destroy();
            reject(new Error(`no answer within 3 s: ${text}`));
          }, 3000);
        });
        expect(answer).toStartWith("HTTP/1.1 401");
        expect(performance.now() - started).toBeLessThan(2000);
      });
    });
  });
}
