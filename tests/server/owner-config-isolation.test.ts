/**
 * Tests never read the owner's configuration: a `.env` (and a config folder) in the checkout, with every push
 * channel pointing at a recorder, reaches neither the test runner nor a server a test starts (bunfig.toml's
 * `env = false`; the test servers' own CONFIG_DIR). The files are planted only where none exists and removed after.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, serversForThisFile } from "../helpers/server.ts";

setDefaultTimeout(60_000);
const ROOT = resolve(import.meta.dir, "..", "..");
// `bun run` reads .env and .env.local, `bun test` .env and .env.test: one of each is enough when the owner has some.
const DOTENV_NAMES = [".env", ".env.local", ".env.test"];
const PLANTED_NAMES = ["TELEGRAM_BOT_TOKEN", "DISCORD_WEBHOOK_URL", "ONEBOT_URL", "WEBHOOK_URL", "BARK_SERVER", "NOTIFY_DEFAULT"];

const start = serversForThisFile();
const { pair, env: keyEnv } = testKeys();
const planted: string[] = [];
let plantedConfigDir: string | null = null;
let recorder: RecordingServer;

beforeAll(async () => {
  recorder = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true, code: 200, retcode: 0, status: "ok", result: [] } } });
  const dotenv = [
    "# Planted by tests/server/owner-config-isolation.test.ts and removed after it; safe to delete.",
    "TELEGRAM_BOT_TOKEN=1:planted-token",
    "TELEGRAM_CHAT_ID=1",
    `TELEGRAM_API_BASE=${recorder.url}/dotenv/telegram`,
    `DISCORD_WEBHOOK_URL=${recorder.url}/dotenv/discord/webhooks/1/planted`,
    `ONEBOT_URL=${recorder.url}/dotenv/onebot`,
    "ONEBOT_TARGET=group:1",
    `WEBHOOK_URL=${recorder.url}/dotenv/webhook`,
    `BARK_SERVER=${recorder.url}/dotenv/bark`,
    "NOTIFY_DEFAULT=telegram+discord+onebot+webhook",
    "",
  ].join("\n");
  for (const name of DOTENV_NAMES) {
    const path = join(ROOT, name);
    if (existsSync(path)) continue;
    writeFileSync(path, dotenv, { flag: "wx" });
    planted.push(path);
  }
  // The checkout's config folder (the default CONFIG_DIR) would silence our player's pushes.
  const configDir = join(ROOT, "config");
  if (!existsSync(configDir)) {
    mkdirSync(configDir);
    plantedConfigDir = configDir;
    writeFileSync(join(configDir, "push_map.json"), JSON.stringify({ [PLAYER_ID]: "none" }));
    writeFileSync(join(configDir, "bark_map.json"), JSON.stringify({ planted: "planted-device-key" }));
  }
});

afterAll(async () => {
  for (const path of planted) rmSync(path, { force: true });
  if (plantedConfigDir !== null) rmSync(plantedConfigDir, { recursive: true, force: true });
  await recorder.stop();
});

test("a .env and a config folder in the checkout reach no test server: the save is pushed only where the test said", async () => {
  expect(planted.length).toBeGreaterThan(0);
  // Every channel is routed, one configured: a channel the .env configured would be pushed to.
  const server = await start({ ...keyEnv, WEBHOOK_URL: `${recorder.url}/suite`, NOTIFY_DEFAULT: "telegram+discord+onebot+webhook" });
  const uploadId = crypto.randomUUID();
  expect((await uploadSave(server.url, encryptedSave(pair), uploadId)).status).toBe(200);
  const saveId = await eventually(() => reads(server).saveOfUpload(uploadId), 20_000, "the save");
  await jobReaches(server, saveId, "done", 30_000, "the save's job done");
  expect(recorder.requests.map((request) => request.path)).toEqual(["/suite"]);
});

test("the test runner's own environment holds nothing of a .env in the checkout", async () => {
  const probeDir = mkdtempSync(join(tmpdir(), "mysekai-env-probe-"));
  try {
    const probe = join(probeDir, "probe.test.ts");
    writeFileSync(probe, `import { test } from "bun:test";\ntest("probe", () => console.log("PLANTED=" + JSON.stringify(${JSON.stringify(PLANTED_NAMES)}.filter((name) => process.env[name] !== undefined))));\n`);
    const run = Bun.spawnSync([process.execPath, "test", probe], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
    const output = run.stdout.toString() + run.stderr.toString();
    expect(run.exitCode, output).toBe(0);
    expect(/PLANTED=(.*)/.exec(output)?.[1]).toBe("[]");
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
});
