/**
 * The demo: a realistic synthetic save (no game data) through the real service.
 *   `demo [dataDir]`: starts the service here on a random loopback port with a random key, uploads the save,
 *     waits for its maps and prints where they are (default folder: ./data/demo).
 *   `demo --to <base url>`: sends the save to a running server, encrypted with the AES_KEY/AES_IV of this
 *     environment (or .env), so its owner's page shows a save.
 */
import { join, resolve } from "node:path";
import { parseShaped, shape, text, UsageError, type ParsedCommand } from "./cli-args.ts";
import { ConfigError, loadConfig } from "./config/index.ts";
import { startHttpServer } from "./http/server.ts";
import { flushLog, setLogSink } from "./log.ts";
import { loadNotifySetup } from "./notify/setup.ts";
import { makeEncryptedSample, randomKeys, SAMPLE_PLAYER_ID } from "./samples/index.ts";
import { createService } from "./service.ts";

const sampleUrl = `https://game-api.example/api/user/${SAMPLE_PLAYER_ID}/mysekai?isForceAllReloadOnlyMysekai=True`;

function upload(base: string, save: Uint8Array, uploadId: string): Promise<Response> {
  return fetch(`${base}/uploadSaveData`, {
    method: "POST",
    body: save,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": sampleUrl },
  });
}

const sample = (pair: { key: Uint8Array; iv: Uint8Array }) => makeEncryptedSample(pair, { seed: Date.now() % 100_000, now: Date.now(), rareEverywhere: true });

async function sendTo(base: string): Promise<number> {
  let keys;
  try {
    keys = loadConfig().keys;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`configuration: ${error.message}`);
    throw error;
  }
  const pair = keys[0];
  if (pair === undefined) {
    console.error("no AES key configured: set AES_KEY and AES_IV (in the environment or .env) to the ones the server uses");
    return 1;
  }
  const save = sample(pair);
  const response = await upload(base.replace(/\/+$/, ""), save, `demo-${Date.now()}`).catch((error: Error) => error);
  if (response instanceof Error) {
    console.error(`could not reach ${base}: ${response.message}`);
    return 1;
  }
  console.log(`POST ${base}/uploadSaveData (${(save.byteLength / 1024).toFixed(0)} KB sample save, encrypted with ${pair.label}) → ${response.status} ${await response.text()}`);
  if (response.ok) console.log(`open ${base}/ to see it (player ${SAMPLE_PLAYER_ID})`);
  return response.ok ? 0 : 1;
}

async function runHere(dataDir: string): Promise<number> {
  const { env, pair } = randomKeys();
  const config = loadConfig({ ...env, DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", NOTIFY_DEFAULT: "none", CONFIG_DIR: join(dataDir, "config") });
  const logs: string[] = [];
  setLogSink((line) => logs.push(line));
  const service = await createService(config, loadNotifySetup(config.notify, config.configDir, config.ownerLocale));
  const server = startHttpServer(service.app, config);
  console.log(`the service runs on ${server.url} for this demo, data in ${dataDir}`);
  try {
    const uploadId = `demo-${Date.now()}`;
    const save = sample(pair);
    const response = await upload(server.url.origin, save, uploadId);
    console.log(`POST /uploadSaveData (${(save.byteLength / 1024).toFixed(0)} KB encrypted save) → ${response.status} ${await response.text()}`);
    // This config names no DATABASE_URL: the demo's service is always on SQLite.
    const find = service.db!.$client.query("SELECT a.rel_path AS relPath, a.files AS files FROM archives a JOIN upload_tasks u ON u.save_id = a.save_id WHERE u.upload_id = ?");
    const deadline = Date.now() + 60_000;
    let archive = find.get(uploadId) as { relPath: string; files: string } | null;
    for (; archive === null && Date.now() < deadline; archive = find.get(uploadId) as typeof archive) await Bun.sleep(50);
    if (archive === null) {
      flushLog();
      console.error(`no archive within 60 s; the service said:\n${logs.join("\n")}`);
      return 1;
    }
    const folder = join(dataDir, "archive", archive.relPath);
    console.log(`\nmaps and summary archived in ${folder}:`);
    for (const name of JSON.parse(archive.files) as string[]) console.log(`  ${name}`);
    console.log(`\nrare_resources.txt:\n${await Bun.file(join(folder, "rare_resources.txt")).text()}`);
    return 0;
  } finally {
    await server.stop();
    await service.stop();
  }
}

/** `demo [dataDir]` or `demo --to <url>`. */
const DEMO_ARGS = shape([0, 1], { to: text });

export async function runDemo(args: string[]): Promise<number> {
  let parsed: ParsedCommand;
  try {
    parsed = parseShaped("demo", DEMO_ARGS, args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\nusage: demo [dataDir] | demo --to <server base URL>`);
    return 1;
  }
  const base = parsed.values.to as string | undefined;
  if (base !== undefined) {
    if (!/^https?:\/\//.test(base) || parsed.positionals.length > 0) {
      console.error("demo --to needs the server's base URL (and nothing else), e.g. demo --to http://localhost:9478");
      return 1;
    }
    return sendTo(base);
  }
  return runHere(resolve(parsed.positionals[0] ?? join("data", "demo")));
}

if (import.meta.main) process.exitCode = await runDemo(process.argv.slice(2));
