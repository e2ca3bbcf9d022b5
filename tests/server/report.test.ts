/**
 * Reports (HAR from Reqable, ProxyPin and the like) as POST /capture/report receives them: encodings, refused
 * bodies and caps, the token, and the evaluate job that finds the save. The tests whose guarantee lives in the store
 * (accepted, nothing stored, one save, junk judged, the archive) run on both deployments: one process on SQLite,
 * and hub mode (PostgreSQL + a Swift bucket, two or three processes on it); routing by REPORT_ENABLED and
 * REPORT_PATH, and a secret path kept out of an error line (a broken SQLite table), once on SQLite.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { loadConfig, secretsOf } from "../../src/config/index.ts";
import { DEFAULT_REPORT_MAX_MB, DEFAULT_REPORT_PATH, MIB } from "../../src/contract.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { encryptAesCbc } from "../../src/save/index.ts";
import { encodeSample, makeSampleSave } from "../../src/samples/index.ts";
import { zeroBomb } from "../unit/ingest-fixtures.ts";
import { deployments, sqliteHalfOnly } from "../helpers/deployments.ts";
import { reads, type StoredSave } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, saveUrl, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, type RunningServer, serversForThisFile, startServer } from "../helpers/server.ts";
import { SMALL_MAPS } from "../helpers/small-maps.ts";

setDefaultTimeout(30_000);
const PATH = DEFAULT_REPORT_PATH;
/** REPORT_MAX_SIZE by default, in bytes. */
const REPORT_CAP = DEFAULT_REPORT_MAX_MB * MIB;

const start = serversForThisFile({ JOB_BACKOFF_MS: "50,50", ...SMALL_MAPS });

// ---- HAR building -------------------------------------------------------------------------------

type Body = Uint8Array | string;
/** Bytes go in as base64 (Reqable); a string goes in as is (JSON text, or ProxyPin's one char per byte). */
function holder(body: Body) {
  if (typeof body === "string") return { mimeType: "application/json", size: body.length, text: body };
  return { mimeType: "application/octet-stream", size: body.length, text: Buffer.from(body).toString("base64"), encoding: "base64" };
}
function entry(url: string, response: Body | null, request?: Body) {
  return {
    request: { method: request === undefined ? "GET" : "POST", url, headers: [], ...(request !== undefined && { postData: holder(request) }) },
    response: response === null ? null : { status: 200, content: holder(response) },
  };
}
const har = (...entries: unknown[]) => ({ log: { entries } });
const json = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));
const latin1 = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
const playerUrl = (id: string) => `https://game-api.example/api/user/${id}/mysekai?isForceAllReloadOnlyMysekai=True`;
const otherUrl = (n: number) => `https://game-api.example/api/user/${n}/home/refresh`;

function post(server: RunningServer, body: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}, path = PATH) {
  return fetch(`${server.url}${path}`, { method: "POST", body: body as RequestInit["body"], headers: { "content-type": "application/json", ...headers } });
}
async function expectAnswer(response: Response, status: number, text: string | RegExp) {
  const body = await response.text();
  expect({ status: response.status, body }).toMatchObject({ status });
  if (typeof text === "string") expect(body).toBe(text);
  else expect(body).toMatch(text);
}

const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
const tiny = () => json(har(entry(otherUrl(1), '{"ok":true}')));
const keys = testKeys();
const small = () => encryptedSave(keys.pair, { sites: [5] });

describe("REPORT_ENABLED and REPORT_PATH, answered before the store: one process on SQLite", () => {
  test("REPORT_ENABLED=0 → 404; REPORT_PATH without a leading slash is served under /", async () => {
    const [off, secret] = await Promise.all([start({ REPORT_ENABLED: "0" }), start({ REPORT_PATH: "secret-abc" })]);
    await expectAnswer(await post(off, tiny()), 404, "not found");
    await expectAnswer(await post(secret, tiny(), {}, "/secret-abc"), 200, "ok");
    await expectAnswer(await post(secret, tiny()), 404, "not found");
  });

  test("a secret REPORT_PATH is never printed: not at start, not in an error line", async () => {
    const secret = `s3cr3t-${crypto.randomUUID()}`;
    const server = await start({ REPORT_PATH: `/capture/${secret}` });
    await expectAnswer(await post(server, tiny(), {}, `/capture/${secret}`), 200, "ok");
    // Break the store under the running server: the next report fails inside the route.
    await writes(server).breakReports();
    await expectAnswer(await post(server, tiny(), {}, `/capture/${secret}`), 500, "internal error");
    const hash = new Bun.CryptoHasher("sha256").update(`/capture/${secret}`).digest("hex").slice(0, 8);
    await server.waitForOutput(new RegExp(`\\[SERVER\\] unhandled error path=/capture/…#${hash} `));
    await server.waitForOutput(`report: POST ${server.url}/capture/…#${hash}`);
    expect(server.output()).not.toContain(secret);
    expect(server.output()).not.toContain(secret.slice(7, 20));
    // Error text bound for logs and the database is redacted with secretsOf: a secret path is one, the default is not.
    expect(secretsOf(loadConfig({ REPORT_PATH: `/capture/${secret}` }))).toContain(`/capture/${secret}`);
    expect(secretsOf(loadConfig({}))).not.toContain(DEFAULT_REPORT_PATH);
  });

  test("REPORT_PATH=/uploadSaveData: the server refuses to start, naming REPORT_PATH", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mysekai-test-"));
    const failed = startServer({ env: { REPORT_PATH: "/uploadSaveData" }, dataDir });
    await expect(failed).rejects.toThrow(/server exited \(1\)[\s\S]*REPORT_PATH must not be \/uploadSaveData/);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

for (const deployment of deployments("reports")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    let settings: Record<string, string> = {};
    const running: RunningServer[] = [];
    const startIn = async (env: Record<string, string> = {}, dataDir?: string) => {
      const server = await start({ ...settings, ...env }, dataDir);
      running.push(server);
      return server;
    };
    // A hub's processes share its keys (any of them may evaluate a report), and a test that starts one with other
    // keys or notify settings has the hub to itself: the others are stopped first.
    const hubKeys = deployment.hub ? keys.env : {};
    // The work they owe is finished first: a job left queued would be claimed, and pushed, by the next process.
    const alone = async () => {
      if (!deployment.hub) return;
      const owed = async () => (await store(running[0]!).jobs()).filter((job) => ["pending", "running", "pending_retry"].includes(job.state)).length;
      if (running.length > 0) await eventually(async () => (await owed()) === 0, 60_000, "the hub's queued work done");
      for (const server of running.splice(0)) await server.stop();
    };
    /** Every running process's log: in a hub, the one that evaluates a report may not be the one that received it. */
    const everyOutput = () => running.map((server) => server.output()).join("\n");
    /**
     * Which body becomes the save is the evaluate stage's choice, the same on every store; what it records (a new
     * save once, a duplicate, an outcome without a save, candidates dropped or kept) runs on both stores in
     * stage-store.contract.test.ts, and the start-up resume and the owner's retry in job-store.*.contract.test.ts.
     */
    const notOnHub = sqliteHalfOnly(deployment);

    // ---- store lookups ----------------------------------------------------------------------------

    const store = (server: RunningServer) => reads(server, deployment);
    const count = async (server: RunningServer, table: "saves" | "reports") => (table === "saves" ? store(server).saveCount() : (await store(server).reports()).length);
    const lastReportId = async (server: RunningServer) => (await store(server).reports()).at(-1)?.id ?? 0;
    const saveOf = (server: RunningServer, encrypted: Uint8Array) => store(server).saveBySha(sha256Hex(encrypted));
    const reportJob = (server: RunningServer, reportId: number) => store(server).jobOfReport(reportId);
    const candidatesOf = (server: RunningServer, reportId: number) => store(server).candidates(reportId);

    /** POSTs a report that must be accepted; returns its id once the evaluate job settled in `state`. */
    async function reportSettled(server: RunningServer, body: Uint8Array, headers: Record<string, string> = {}, state = "done") {
      const before = await lastReportId(server);
      await expectAnswer(await post(server, body, headers), 200, "ok");
      // Committed before its 200. The next id, not before + 1: PostgreSQL's identity may skip one.
      const id = (await store(server).reports()).find((report) => report.id > before)?.id;
      expect(id).toBeNumber();
      await eventually(async () => (await reportJob(server, id!))?.state === state, 20_000, `report ${id} job ${state}`);
      return (await store(server).report(id!))!;
    }

    /** Waits for a save's job to settle; a failure shows its reason at once instead of a timeout. */
    async function saveJobDone(server: RunningServer, saveId: number) {
      const job = () => store(server).job(saveId);
      await eventually(async () => ["done", "failed"].includes((await job())?.state ?? ""), 20_000, `save ${saveId} done`);
      expect(await job()).toMatchObject({ state: "done", last_error: null });
    }

    async function savedAndArchived(server: RunningServer, encrypted: Uint8Array, playerId: string): Promise<StoredSave> {
      const save = await eventually(() => saveOf(server, encrypted), 20_000, "save row");
      expect(save).toMatchObject({ player_id: playerId, source: "report" });
      expect(await store(server).playerIdType(save.id)).toBe("text");
      await saveJobDone(server, save.id);
      const archive = (await store(server).archive(save.id))!;
      expect(await deployment.archiveFiles(server)).toContain(`${archive.rel_path}/save.bin`);
      return save;
    }

    // ---- servers ----------------------------------------------------------------------------------

    let main: RunningServer;
    let quiet: RunningServer;
    beforeAll(async () => {
      settings = await deployment.settings();
      [main, quiet] = await Promise.all([startIn(keys.env), startIn(hubKeys)]);
    }, 180_000);
    afterAll(() => deployment.end());

    describe("POST /capture/report: encodings", () => {
      const codings: [header: string, encode: (bytes: Uint8Array) => Uint8Array][] = [
        ["identity", (bytes) => bytes],
        ["gzip", (bytes) => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>)],
        ["x-gzip", (bytes) => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>)],
        ["br", (bytes) => brotliCompressSync(bytes)],
        ["zstd", (bytes) => Bun.zstdCompressSync(bytes)],
        ["zstandard", (bytes) => Bun.zstdCompressSync(bytes)],
      ];
      codings.forEach(([header, encode], i) => {
        test(`${header}: 200 ok, exactly one save from the entry's player, archived`, async () => {
          const save = small();
          const player = `74883938217443901${50 + i}`;
          const saves = await count(main, "saves");
          const report = await reportSettled(main, encode(json(har(entry(playerUrl(player), save)))), { "content-encoding": header });
          expect(await count(main, "saves")).toBe(saves + 1);
          const row = await savedAndArchived(main, save, player);
          expect(report).toMatchObject({ outcome: "save", save_id: row.id });
        });
      });

      test("a zstd frame without a content size (streamed CompressionStream output)", async () => {
        const save = small();
        const plain = json(har(entry(saveUrl(), save)));
        const frame = new Uint8Array(await new Response(new Blob([plain as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("zstd"))).arrayBuffer());
        expect((frame[4] ?? 0xff) & 0xe0).toBe(0); // no Frame_Content_Size field
        expect((await reportSettled(main, frame, { "content-encoding": "zstd" })).outcome).toBe("save");
        expect((await saveOf(main, save))?.source).toBe("report");
      });

      test("plain JSON with a wrong Content-Encoding is taken as it is", async () => {
        const save = small();
        expect((await reportSettled(main, json(har(entry(saveUrl(), save))), { "content-encoding": "gzip" })).outcome).toBe("save");
        expect(await saveOf(main, save)).toBeDefined();
      });
    });

    describe("POST /capture/report: refused bodies (nothing stored)", () => {
      test("an unsupported encoding on a body that is not JSON → 400 naming it", async () => {
        await expectAnswer(await post(quiet, Bun.gzipSync(json(har()) as Uint8Array<ArrayBuffer>), { "content-encoding": "lz4" }), 400, "unsupported Content-Encoding: lz4");
      });

      test("a body that is not JSON → 400; JSON that is not HAR → 400", async () => {
        const reports = await count(quiet, "reports");
        await expectAnswer(await post(quiet, new Uint8Array([0x00, 0xff, 0x13, 0x37, 0x42])), 400, "report body is not JSON (HAR expected)");
        await expectAnswer(await post(quiet, json({ hello: "world" })), 400, /^report is not HAR/);
        await expectAnswer(await post(quiet, json({ log: { entries: "none" } })), 400, /log\.entries/);
        expect(await count(quiet, "reports")).toBe(reports);
      });

      test("a 1 GiB gzip bomb (under the size cap as sent) → 413, server RSS barely moves", async () => {
        const bomb = await zeroBomb("gzip", 1 << 30);
        const reports = await count(quiet, "reports");
        expect(bomb.length).toBeLessThanOrEqual(MIB);
        const rss = () => rssBytes(quiet.pid);
        const before = rss();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rss())), 2);
        const response = await post(quiet, bomb, { "content-encoding": "gzip" });
        clearInterval(sampler);
        await expectAnswer(response, 413, `decompressed report body exceeds ${4 * MIB} bytes`);
        peak = Math.max(peak, rss());
        expect((peak - before) / MIB).toBeLessThan(50);
        expect(await count(quiet, "reports")).toBe(reports);
      });

      test("more than REPORT_MAX_ENTRIES entries or REPORT_MAX_CANDIDATES candidates → 413; at the caps → 200", async () => {
        const tiny = (n: number) => entry(otherUrl(n), "{}");
        const block = (n: number) => entry(otherUrl(n), new Uint8Array(16).fill(n));
        const reports = await count(quiet, "reports");
        await expectAnswer(await post(quiet, json(har(...Array.from({ length: 1001 }, (_, n) => tiny(n))))), 413, "report has more than 1000 entries");
        await expectAnswer(await post(quiet, json(har(...Array.from({ length: 65 }, (_, n) => block(n))))), 413, "report has more than 64 candidate bodies");
        expect(await count(quiet, "reports")).toBe(reports);
        const atCaps = json(har(...Array.from({ length: 1000 }, (_, n) => (n < 64 ? block(n) : tiny(n)))));
        await expectAnswer(await post(main, atCaps), 200, "ok");
        await main.waitForOutput(/\[REPORT\] received .*entries=1000 candidates=64 emptyBodies=0 otherBodies=936 /);
      });

      test("dense JSON that decompresses more than 16× (past 256 KiB) → 413 before it is parsed", async () => {
        const dense = json({ log: { entries: [] }, x: Array.from({ length: 1_200_000 }, () => ({})) });
        const gz = Bun.gzipSync(dense as Uint8Array<ArrayBuffer>);
        expect(gz.length * 16).toBeLessThan(dense.length);
        const reports = await count(quiet, "reports");
        await expectAnswer(await post(quiet, gz, { "content-encoding": "gzip" }), 413, "decompressed report body is more than 16 times its size as sent");
        expect(await count(quiet, "reports")).toBe(reports);
      });

      const overCap = () => {
        const body = new Uint8Array(REPORT_CAP + 4096).fill(0x20);
        body[0] = 0x7b;
        return body;
      };
      test("a body over REPORT_MAX_SIZE with Content-Length → 413", async () => {
        await expectAnswer(await post(quiet, overCap()), 413, `report body exceeds ${REPORT_CAP} bytes`);
      });

      test("a chunked body over REPORT_MAX_SIZE (no Content-Length) → 413", async () => {
        const body = overCap();
        const reports = await count(quiet, "reports");
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.slice(at, at + 64 * 1024));
            controller.close();
          },
        });
        await expectAnswer(await post(quiet, stream), 413, `report body exceeds ${REPORT_CAP} bytes`);
        expect(await count(quiet, "reports")).toBe(reports);
      });
    });

    describe("REPORT_TOKEN", () => {
      const token = `tok-${crypto.randomUUID()}`;
      let guarded: RunningServer;
      beforeAll(async () => {
        guarded = await startIn({ ...hubKeys, REPORT_TOKEN: token });
      });

      test("a missing or wrong token → 401 without reading the body", async () => {
        const reports = await count(guarded, "reports");
        await expectAnswer(await post(guarded, tiny()), 401, "missing or wrong report token");
        // A body that never ends: only an answer that does not wait for it can arrive.
        let release = () => {};
        const endless = new ReadableStream<Uint8Array>({
          async pull(controller) {
            controller.enqueue(new TextEncoder().encode('{"log":'));
            await new Promise<void>((resolve) => (release = resolve));
          },
        });
        const answer = await post(guarded, endless, { "X-Report-Token": `${token}x` });
        release();
        await expectAnswer(answer, 401, "missing or wrong report token");
        expect(await count(guarded, "reports")).toBe(reports);
      });

      test("the right token in X-Report-Token or x-reqable-reporter-tag → 200; it never reaches the log", async () => {
        const reports = await count(guarded, "reports");
        await expectAnswer(await post(guarded, tiny(), { "X-Report-Token": token }), 200, "ok");
        await expectAnswer(await post(guarded, tiny(), { "x-reqable-reporter-tag": token }), 200, "ok");
        expect(await count(guarded, "reports")).toBe(reports + 2);
        await guarded.waitForOutput("[REPORT] received");
        expect(guarded.output()).not.toContain(token);
      });
    });

    describe("evaluate: which body becomes the save", () => {
      const notASave = () => encryptAesCbc(encodeSample({ updatedResources: { userHome: [] } }), keys.pair.key, keys.pair.iv);

      notOnHub("non-save entries before and after: one save, from the right entry", async () => {
        const save = small();
        const doc = har(
          entry(otherUrl(111), '{"system":{"appVersion":"5.0.0"}}'),
          entry(otherUrl(222), notASave(), '{"refresh":true}'),
          entry(playerUrl("7488393821744390333"), save),
          entry(otherUrl(444), '{"after":1}'),
        );
        const report = await reportSettled(main, json(doc));
        expect(report.outcome).toBe("save");
        expect(await saveOf(main, save)).toMatchObject({ id: report.save_id!, player_id: "7488393821744390333" });
      });

      notOnHub("the save only in the request body (postData)", async () => {
        const save = small();
        const report = await reportSettled(main, json(har(entry(playerUrl("7488393821744390444"), '{"result":"ok"}', save))));
        expect(report.outcome).toBe("save");
        expect((await saveOf(main, save))?.player_id).toBe("7488393821744390444");
      });

      notOnHub("ProxyPin: one bare entry, binary body as one char per byte", async () => {
        const save = small();
        const bare = { request: { method: "POST", url: playerUrl("7488393821744390555") }, response: { status: 200, content: { mimeType: "application/octet-stream", text: latin1(save) } } };
        expect((await reportSettled(main, json(bare))).outcome).toBe("save");
        expect((await saveOf(main, save))?.player_id).toBe("7488393821744390555");
      });

      notOnHub("ProxyPin split: request phase, then the response phase carries the save", async () => {
        const save = small();
        const url = playerUrl("7488393821744390666");
        const first = await reportSettled(main, json({ request: { method: "POST", url, headers: [] }, response: null }), { "X-Report-Phase": "request" });
        expect(first.outcome).toBe("no_save");
        const second = await reportSettled(main, json({ request: { method: "POST", url }, response: { status: 200, content: holder(save) } }), { "X-Report-Phase": "response" });
        expect(second.outcome).toBe("save");
        expect((await saveOf(main, save))?.player_id).toBe("7488393821744390666");
      });

      const b64Entry = (url: string, text: string, size: number) => ({ request: { method: "GET", url }, response: { status: 200, content: { size, text, encoding: "base64" } } });
      const variants: [string, (b64: string) => string][] = [
        ["line-wrapped every 76 chars (CRLF)", (b64) => b64.match(/.{1,76}/g)!.join("\r\n")],
        ["unpadded", (b64) => b64.replace(/=+$/, "")],
        ["URL-safe alphabet, unpadded", (b64) => b64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")],
      ];
      variants.forEach(([name, transform], i) => {
        notOnHub(`base64 ${name}: the save is archived`, async () => {
          let save = small();
          while (!Buffer.from(save).toString("base64").endsWith("=") || !/[+/]/.test(Buffer.from(save).toString("base64"))) save = small();
          const player = `74883938217443907${70 + i}`;
          const report = await reportSettled(main, json(har(b64Entry(playerUrl(player), transform(Buffer.from(save).toString("base64")), save.length))));
          expect(report.outcome).toBe("save");
          await savedAndArchived(main, save, player);
        });
      });

      test("a body that is not base64 → 200, WARN at receipt, job failed with the reason, candidate kept", async () => {
        const garbage = "%%% this is not base64 %%%";
        const doc = har(entry(otherUrl(1), '{"system":{"appVersion":"5.0.0"}}'), b64Entry(saveUrl(), garbage, 145_184));
        const report = await reportSettled(main, json(doc), {}, "failed");
        expect(report.outcome).toBe("no_save");
        expect((await reportJob(main, report.id))?.last_error).toBe("entry 1 response body is not valid base64; kept for inspection");
        const kept = await candidatesOf(main, report.id);
        expect(kept.map((c) => [c.entryIndex, Number(c.undecodable), Buffer.from(c.body).toString()])).toEqual([[1, 1, garbage]]);
        await main.waitForOutput(new RegExp(`\\[REPORT\\] WARN received 1 undecodable bodies .* report=${report.id} `));
      });

      notOnHub("an undecodable body beside a save: the save is taken, nothing fails", async () => {
        const save = small();
        const report = await reportSettled(main, json(har(b64Entry(saveUrl(), "@@@@", 4), entry(playerUrl("7488393821744390779"), save))));
        expect(report.outcome).toBe("save");
        expect((await saveOf(main, save))?.player_id).toBe("7488393821744390779");
      });

      notOnHub("two different saves in one report: only the first is kept", async () => {
        const [first, second] = [small(), small()];
        const report = await reportSettled(main, json(har(entry(saveUrl(), first), entry(saveUrl(), second))));
        expect(report.outcome).toBe("save");
        expect((await saveOf(main, first))?.id).toBe(report.save_id!);
        expect(await saveOf(main, second)).toBeUndefined();
        expect(await candidatesOf(main, report.id)).toHaveLength(0);
      });

      test("only empty bodies (the capture-tool bug) → 200, outcome empty_bodies, a WARN line", async () => {
        const empty = { request: { method: "GET", url: saveUrl() }, response: { status: 200, content: { mimeType: "application/octet-stream", size: 145_184, text: "" } } };
        const report = await reportSettled(main, json(har(empty, empty)));
        expect(report).toMatchObject({ outcome: "empty_bodies", save_id: null });
        await main.waitForOutput(new RegExp(`\\[REPORT\\] WARN received only empty bodies.* report=${report.id} .*emptyBodies=2`));
      });

      notOnHub("a partial refresh (no harvest maps) → outcome partial_save, no save row", async () => {
        const sample = makeSampleSave({ seed: 9001 });
        (sample.updatedResources as Record<string, unknown>).userMysekaiHarvestMaps = [];
        const partial = encryptAesCbc(encodeSample(sample), keys.pair.key, keys.pair.iv);
        const saves = await count(main, "saves");
        const report = await reportSettled(main, json(har(entry(saveUrl(), partial))));
        expect(report).toMatchObject({ outcome: "partial_save", save_id: null });
        expect(await count(main, "saves")).toBe(saves);
      });

      test("[REPORT] lines: received and evaluated, without the URL's query or any key", async () => {
        const save = small();
        const url = `${playerUrl("7488393821744390888")}&sessionToken=query-must-not-leak`;
        const report = await reportSettled(main, json(har(entry(url, save))), { "x-reqable-platform": "android" });
        // Lines are written just after the commit they report; in a hub, by whichever process evaluated it.
        await eventually(() => new RegExp(`\\[REPORT\\] evaluated report=${report.id} `).test(everyOutput()), 10_000, "the evaluated line");
        const lines = everyOutput().split("\n").filter((line) => line.includes(`report=${report.id} `));
        expect(lines.find((l) => l.startsWith("[REPORT] received"))).toMatch(/platform=android .*entries=1 candidates=1 .*bytes=\d+ commitMs=[\d.]+ ms=[\d.]+$/);
        expect(lines.find((l) => l.startsWith("[REPORT] evaluated"))).toMatch(new RegExp(`outcome=save save=${report.save_id} player=7488393821744390888 `));
        const secrets = ["query-must-not-leak", "isForceAllReloadOnlyMysekai", keys.pair.keyText.slice(4), keys.pair.ivText.slice(4)];
        for (const secret of secrets) expect(everyOutput()).not.toContain(secret);
      });
    });

    describe("evaluate: duplicates and keys", () => {
      let telegram: RecordingServer;
      afterAll(() => telegram?.stop());

      notOnHub("the same save by upload and by report: one save row, outcome duplicate, one push", async () => {
        telegram = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true, result: [] } } });
        const { pair, env } = testKeys();
        await alone();
        const server = await startIn({ ...env, TELEGRAM_BOT_TOKEN: "123:bot-token", TELEGRAM_CHAT_ID: "42", TELEGRAM_API_BASE: telegram.url });
        const save = encryptedSave(pair);
        expect((await uploadSave(server.url, save, "dup-1")).status).toBe(200);
        const saveId = (await store(server).saveOfUpload("dup-1"))!;
        await saveJobDone(server, saveId);
        const report = await reportSettled(server, json(har(entry(saveUrl(), save))));
        expect(report).toMatchObject({ outcome: "duplicate", save_id: saveId });
        expect((await store(server).savesWithJobs()).filter((row) => row.sha256 === sha256Hex(save))).toHaveLength(1);
        // The upload's save job and the report's evaluate job: nothing else can push.
        expect((await store(server).jobs()).filter((job) => job.save_id === saveId || job.report_id === report.id)).toHaveLength(2);
        expect(telegram.requests.filter((r) => r.path.endsWith("/sendMediaGroup"))).toHaveLength(1);
      });

      notOnHub("no AES key: the report waits; a restart with keys saves and archives it", async () => {
        await alone();
        const server = await startIn();
        const save = small();
        const report = await reportSettled(server, json(har(entry(saveUrl(), save))), {}, "waiting_for_key");
        expect(await candidatesOf(server, report.id)).toHaveLength(1);
        await server.stop();
        const again = await startIn(keys.env, server.dataDir);
        await savedAndArchived(again, save, PLAYER_ID);
        expect((await reportJob(again, report.id))?.state).toBe("done");
      });

      notOnHub("a wrong key: the job fails naming the keys, candidates kept; right keys + `cli retry --failed` save it", async () => {
        await alone();
        const server = await startIn(testKeys().env);
        const save = small();
        const report = await reportSettled(server, json(har(entry(saveUrl(), save))), {}, "failed");
        expect((await reportJob(server, report.id))?.last_error).toMatch(/keys.*AES_KEY/);
        expect(await candidatesOf(server, report.id)).toHaveLength(1);
        await server.stop();
        const again = await startIn(keys.env, server.dataDir);
        // A hub's database also holds the failed jobs of the tests before (the undecodable body's).
        const failed = (await store(again).jobs()).filter((job) => job.state === "failed").length;
        expect(failed).toBeGreaterThanOrEqual(1);
        const cli = Bun.spawnSync([process.execPath, "src/cli.ts", "retry", "--failed"], { env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, ...settings } });
        expect(cli.stdout.toString()).toContain(`${failed} failed job`);
        expect(cli.exitCode).toBe(0);
        await savedAndArchived(again, save, PLAYER_ID);
        expect((await store(again).report(report.id))?.outcome).toBe("save");
      });
    });
  });
}
