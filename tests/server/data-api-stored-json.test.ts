/**
 * The data API answers from the save.json.gz that generate stored beside save.bin: a gzip answer is that file
 * with the added fields appended (nothing of the save compressed again), a first read after a restart reads it
 * (a save whose bytes are gone still answers), and a save without one (archived before it existed, or a
 * damaged one) is built from its bytes on read.
 */
import { beforeAll, expect, test } from "bun:test";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { makeEncryptedSample, makeSampleSave, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { parseExact } from "../helpers/exact-json.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });
const SAMPLE = { seed: 11, now: Date.now() };
const own = makeSampleSave(SAMPLE).updatedResources as Record<string, any>;
/** The closing "}" block and the gzip trailer: what an answer replaces at the end of the stored file. */
const STORED_TAIL = 14;

let env: Record<string, string>;
let server: RunningServer;
let token: string;
let saveId: number;
let stored: string;

const read = (query = "", headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/jp/user/${SAMPLE_PLAYER_ID}/mysekai${query}`, { headers: { authorization: `Bearer ${token}`, ...headers }, decompress: false });
const archiveFiles = async () => (await reads(server).archive(saveId))!.files;

/** The save's values in a JSON answer, compared as a bot with a big-integer parser reads them. */
function expectTheSave(text: string): void {
  const body = parseExact(text) as Record<string, any>;
  expect(body.updatedResources.userMysekaiGamedata.userId).toBe(own.userMysekaiGamedata.userId);
  expect(BigInt(body.updatedResources.userMysekaiSiteHousingLayouts[3].userMysekaiFixtureInstanceId)).toBe(own.userMysekaiSiteHousingLayouts[3].userMysekaiFixtureInstanceId);
  expect(body.source).toBe("mysekai-ingest");
}

beforeAll(async () => {
  const keys = testKeys();
  env = keys.env;
  server = await start(env);
  expect((await uploadSave(server.url, makeEncryptedSample(keys.pair, SAMPLE), "stored-1")).status).toBe(200);
  saveId = (await reads(server).saveOfUpload("stored-1"))!;
  await jobReaches(server, saveId, "done", 30_000, "the save done");
  token = await ownerCliLastLine(server, "api-tokens", "add", "lunabot");
  stored = join(server.dataDir, "archive", (await reads(server).archive(saveId))!.rel_path, "save.json.gz");
}, 60_000);

test("generate stores save.json.gz beside save.bin, listed in the archive's files: the save's exact JSON, gzip'd", async () => {
  expect(await archiveFiles()).toContain("save.json.gz");
  const text = gunzipSync(readFileSync(stored)).toString();
  expect(text).toContain(`"userId":${SAMPLE_PLAYER_ID}`);
  expect((parseExact(text) as Record<string, any>).updatedResources.userMysekaiGamedata.userId).toBe(own.userMysekaiGamedata.userId);
});

test("a gzip answer is the stored file with the fields appended; identity, zstd and gzip carry the same JSON", async () => {
  const file = readFileSync(stored);
  const gzip = new Uint8Array(await (await read("", { "accept-encoding": "gzip, zstd" })).arrayBuffer());
  expect(Buffer.from(gzip.subarray(0, file.length - STORED_TAIL)).equals(file.subarray(0, file.length - STORED_TAIL))).toBe(true);
  const identity = await (await read()).text();
  expectTheSave(identity);
  expect(gunzipSync(gzip).toString()).toBe(identity);
  const zstd = await read("", { "accept-encoding": "zstd" });
  expect(zstd.headers.get("content-encoding")).toBe("zstd");
  expect(Bun.zstdDecompressSync(new Uint8Array(await zstd.arrayBuffer())).toString()).toBe(identity);
  // filter slices the stored JSON: the member is the same text as in the whole answer.
  const filtered = await (await read("?filter=updatedResources")).text();
  const member = filtered.slice(0, filtered.indexOf(',"upload_time"'));
  expect(identity.startsWith(member)).toBe(true);
  expect(Object.keys(parseExact(filtered) as object)).toEqual(["updatedResources", "upload_time", "source", "local_source"]);
});

test("a save with no stored JSON (archived before it existed) is built from its bytes on read, the same JSON", async () => {
  const identity = await (await read()).text();
  renameSync(stored, `${stored}.away`);
  const files = await archiveFiles();
  await writes(server).archiveFiles(saveId, files.filter((file) => file !== "save.json.gz"));
  try {
    const built = await read();
    expect(built.status).toBe(200);
    expect(await built.text()).toBe(identity);
  } finally {
    renameSync(`${stored}.away`, stored);
    await writes(server).archiveFiles(saveId, files);
  }
  expect(await archiveFiles()).toContain("save.json.gz");
});

test("a damaged stored file is not served as the save: its JSON is built again", async () => {
  const identity = await (await read()).text();
  const file = readFileSync(stored);
  const damaged = Buffer.from(file);
  damaged[Math.floor(file.length / 2)]! ^= 0xff;
  writeFileSync(stored, damaged);
  try {
    const answer = await read();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(identity);
  } finally {
    writeFileSync(stored, file);
  }
});

test("the first read after a restart is the stored file: with the save's bytes gone from the database and the archive, it still answers", async () => {
  await server.stop();
  await writes(server).dropBody(saveId);
  rmSync(join(stored, "..", "save.bin"));
  server = await start(env, server.dataDir);
  const answer = await read();
  expect(answer.status).toBe(200);
  expectTheSave(await answer.text());
  const gzip = await read("", { "accept-encoding": "gzip" });
  expectTheSave(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString());
});
