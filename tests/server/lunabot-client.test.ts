/**
 * lunabot as the real client: Python's aiohttp (Debian's python3-aiohttp) making lunabot's own calls against
 * the service as a child process: the subscription PUT and the upload-time GET with a json= body (its
 * msr_auto_push loop, twice on one keep-alive session), the older plain GET, and the save read, with a Bearer
 * token and Accept-Encoding: zstd (tests/helpers/lunabot-client.py).
 */
import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { makeEncryptedSample, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";
import { serversForThisFile, type RunningServer } from "../helpers/server.ts";

const PYTHON = "/usr/bin/python3";
/** Why lunabot's own client cannot run here (printed once), or null (.ci/run installs Debian's python3-aiohttp). */
const AIOHTTP_MISSING = Bun.spawnSync([PYTHON, "-c", "import aiohttp, zstandard"], { stderr: "ignore" }).exitCode === 0 ? null : "lunabot client test skipped: /usr/bin/python3 lacks aiohttp or zstandard (apt-get install python3-aiohttp python3-zstandard)";
if (AIOHTTP_MISSING) console.warn(AIOHTTP_MISSING);
const CLIENT = join(import.meta.dir, "../helpers/lunabot-client.py");
const OTHER_PLAYER = "1234567890123456789";
const { pair, env } = testKeys();
const start = serversForThisFile({ ...env, NOTIFY_DEFAULT: "none" });
let server: RunningServer;
let token: string;
let uploadedAfter: number;

beforeAll(async () => {
  server = await start();
  uploadedAfter = Date.now();
  expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed: 3, now: Date.now() }), "luna-1")).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload("luna-1"))!;
  await jobReaches(server, saveId, "done", 60_000, "the save archived");
  token = await ownerCliLastLine(server, "api-tokens", "add", "lunabot");
}, 120_000);

async function lunabot(...uids: string[]): Promise<Record<string, { status: number; json?: unknown; detail?: string }>> {
  const run = Bun.spawn([PYTHON, CLIENT, server.url, token, ...uids], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  if (code !== 0) throw new Error(`lunabot-client.py exited ${code}: ${err}`);
  return JSON.parse(out);
}

test.skipIf(AIOHTTP_MISSING !== null)("msr_auto_push's PUT then GET with json= reads the upload times in order; the plain GET and the save read work too", async () => {
  const answers = await lunabot(SAMPLE_PLAYER_ID, OTHER_PLAYER);
  for (const round of [1, 2]) {
    expect(answers[`put${round}`]).toEqual({ status: 200, json: { status: "ok" } });
    const times = answers[`get${round}`]!;
    expect(times.status).toBe(200);
    const [mine, other] = times.json as number[];
    expect(mine).toBeGreaterThanOrEqual(uploadedAfter);
    expect(other).toBe(0);
  }
  const plain = answers.plain!.json as { id: string; upload_time: number }[];
  expect(plain).toEqual([{ id: SAMPLE_PLAYER_ID, upload_time: (answers.get1!.json as number[])[0]! }]);
  expect(answers.read!.status).toBe(200);
  expect((answers.read!.json as { upload_time: number }).upload_time).toBe(plain[0]!.upload_time);
  expect(server.output()).not.toContain(token);
}, 60_000);
