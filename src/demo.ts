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
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { cliMessages } from "./i18n/owner/index.ts";

/** The owner's language, as the CLI's (OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG). */
const c = cliMessages(ownerLocaleOf());

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
    if (error instanceof ConfigError) console.error(c.configuration(error.in(ownerLocaleOf())));
    throw error;
  }
  const pair = keys[0];
  if (pair === undefined) {
    console.error(c.demo.noKey);
    return 1;
  }
  const save = sample(pair);
  const response = await upload(base.replace(/\/+$/, ""), save, `demo-${Date.now()}`).catch((error: Error) => error);
  if (response instanceof Error) {
    console.error(c.demo.unreachable(base, response.message));
    return 1;
  }
  console.log(`POST ${base}/uploadSaveData (${c.demo.sent((save.byteLength / 1024).toFixed(0), pair.label)}) → ${response.status} ${await response.text()}`);
  if (response.ok) console.log(c.demo.openIt(`${base}/`, SAMPLE_PLAYER_ID));
  return response.ok ? 0 : 1;
}

async function runHere(dataDir: string): Promise<number> {
  const { env, pair } = randomKeys();
  const config = loadConfig({ ...env, DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", NOTIFY_DEFAULT: "none", CONFIG_DIR: join(dataDir, "config") });
  const logs: string[] = [];
  setLogSink((line) => logs.push(line));
  const service = await createService(config, loadNotifySetup(config.notify, config.configDir, config.ownerLocale));
  const server = startHttpServer(service.app, config);
  console.log(c.demo.runsOn(String(server.url), dataDir));
  try {
    const uploadId = `demo-${Date.now()}`;
    const save = sample(pair);
    const response = await upload(server.url.origin, save, uploadId);
    console.log(`POST /uploadSaveData (${c.demo.encrypted((save.byteLength / 1024).toFixed(0))}) → ${response.status} ${await response.text()}`);
    // This config names no DATABASE_URL: the demo's service is always on SQLite.
    const find = service.db!.$client.query("SELECT a.rel_path AS relPath, a.files AS files FROM archives a JOIN upload_tasks u ON u.save_id = a.save_id WHERE u.upload_id = ?");
    const deadline = Date.now() + 60_000;
    let archive = find.get(uploadId) as { relPath: string; files: string } | null;
    for (; archive === null && Date.now() < deadline; archive = find.get(uploadId) as typeof archive) await Bun.sleep(50);
    if (archive === null) {
      flushLog();
      console.error(c.demo.noArchive(logs.join("\n")));
      return 1;
    }
    const folder = join(dataDir, "archive", archive.relPath);
    console.log(`\n${c.demo.archivedIn(folder)}`);
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
    console.error(`${error.message}\n${c.usage}: demo [dataDir] | demo --to <url>`);
    return 1;
  }
  const base = parsed.values.to as string | undefined;
  if (base !== undefined) {
    if (!/^https?:\/\//.test(base) || parsed.positionals.length > 0) {
      console.error(c.demo.toNeedsUrl);
      return 1;
    }
    return sendTo(base);
  }
  return runHere(resolve(parsed.positionals[0] ?? join("data", "demo")));
}

if (import.meta.main) process.exitCode = await runDemo(process.argv.slice(2));
