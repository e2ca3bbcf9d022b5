/**
 * `npm run init`, the first-run wizard, as a person runs it: the real `bun src/init.ts` in a temp folder (its cwd, so
 * the repo's own .env is never touched), answers piped to stdin, a recording server standing in for NapCat and Bark.
 * The written .env is then loaded by the service's own config loader, as `npm start` would (bun --env-file=.env).
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lanBaseUrls } from "../../src/init/steps.ts";
import { englishWords } from "../helpers/english-words.ts";
import { refusedUrl, startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";

const ROOT = join(import.meta.dir, "../..");
const KEY = "Kq3#v$9xLm'2pZ7w"; // 16 characters with those .env would mangle unquoted
const IV = "a1b2c3d4e5f6g7h8";
/** The address question's choices: this machine's addresses, then "type another", then "none". */
const TYPE_ANOTHER = String(lanBaseUrls().length + 1);
const NO_ADDRESS = String(lanBaseUrls().length + 2);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "mysekai-init-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function recording(): Promise<RecordingServer> {
  const server = await startRecordingServer();
  cleanups.push(() => server.stop());
  return server;
}

/** Bun's own cache goes to HOME: kept out of the folders whose every file the tests list. */
const home = mkdtempSync(join(tmpdir(), "mysekai-init-home-"));
cleanups.push(() => rmSync(home, { recursive: true, force: true }));

function spawnWizard(dir: string, env: Record<string, string>, entry: string[] = ["src/init.ts"]) {
  return Bun.spawn([process.execPath, ...entry.map((part) => (part.endsWith(".ts") ? join(ROOT, part) : part))], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: home, ...env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** Runs the wizard with these answers (one a line), stdin then closed: its exit code and what it printed. */
async function wizard(dir: string, env: Record<string, string>, answers: string[], entry?: string[]) {
  const run = spawnWizard(dir, env, entry);
  run.stdin.write(answers.map((answer) => `${answer}\n`).join(""));
  await run.stdin.end();
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { out, err, code };
}

/** The written .env read by the service's own loader under `bun --env-file=.env`, as `npm start` runs it. */
function loadWritten(dir: string): { keys: string[][]; onebot: unknown; publicBaseUrl: string | null; ownerLocale: string; summary: string } {
  const script = `
    import { loadConfig } from ${JSON.stringify(join(ROOT, "src/config/index.ts"))};
    import { loadNotifySetup } from ${JSON.stringify(join(ROOT, "src/notify/setup.ts"))};
    const c = loadConfig();
    const hex = (b) => Buffer.from(b).toString("hex");
    console.log(JSON.stringify({ keys: c.keys.map((k) => [hex(k.key), hex(k.iv)]), onebot: c.notify.onebot, publicBaseUrl: c.publicBaseUrl,
      ownerLocale: c.ownerLocale, summary: loadNotifySetup(c.notify, c.configDir, "en").summary }));`;
  const run = Bun.spawnSync([process.execPath, "--env-file=.env", "-e", script], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
  expect(run.stderr.toString()).toBe("");
  return JSON.parse(run.stdout.toString());
}

const hex = (text: string) => Buffer.from(text).toString("hex");

/** NapCat's HTTP server: answers only its token. */
function napcat(server: RecordingServer, token: string) {
  server.setDefault("/send_group_msg", (request) =>
    request.headers.authorization === `Bearer ${token}`
      ? { body: { status: "ok", retcode: 0, data: { message_id: 1 } } }
      : { status: 403, body: { status: "failed", retcode: 403, msg: "token verify failed" } },
  );
}

test("Chinese, QQ: a bad key and a wrong token are said in Chinese and asked again; the test message reaches NapCat; .env loads", async () => {
  const dir = folder();
  const server = await recording();
  napcat(server, "right-token");
  const answers = ["", "short", "x".repeat(5000), KEY, IV, "", server.url, "wrong-token", "123456789", "1", server.url, "right-token", "123456789", TYPE_ANOTHER, "192.168.1.20:9478", "http://192.168.1.20:9478"];
  const { out, err, code } = await wizard(dir, { LANG: "zh_CN.UTF-8" }, answers);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  // The language offered from LANG, the refusals in the service's own Chinese words.
  expect(out).toContain("> [1]:");
  expect(out).toContain("AES_KEY 必须是 16、24 或 32 字节，现在是 5 字节");
  expect(out).toContain("超过 2048 个字符，请重新输入");
  expect(out).toContain("测试消息没有送达：被渠道拒绝（请检查它的设置）（onebot: HTTP 403: token verify failed）");
  expect(out).toContain("PUBLIC_BASE_URL 不是有效的 URL：“192.168.1.20:9478”");
  expect(out).toContain("测试消息已发出");
  expect(out).toContain("npm start");
  expect(out).toContain("http://localhost:9478/setup");
  // No key, IV or token is ever printed back.
  for (const secret of [KEY, IV, hex(KEY), hex(IV), "right-token", "wrong-token"]) expect(out).not.toContain(secret);
  // Every sentence Chinese, bar names, what is typed (commands, settings, URLs), English's own name and NapCat's own words.
  const sentences = out.replace("English", "").replace("token verify failed", "").replace("npm start", "").replace(/\S*[._<>{}@*:=-]\S*/g, "");
  const names = ["NapCat", "Lagrange", "WebUI", "token", "iPhone", "Telegram", "Ctrl", "jp"];
  expect(englishWords(sentences).filter((word) => !names.includes(word))).toEqual([]);

  const sent = server.requestsTo("/send_group_msg");
  expect(sent.length).toBe(2);
  expect(sent[1]!.headers.authorization).toBe("Bearer right-token");
  expect(sent[1]!.json).toEqual({ group_id: 123456789, message: [{ type: "text", data: { text: "MySekai：测试消息\n由 npm run init 发送：采集地图会推送到这个聊天。" } }] });

  const envFile = join(dir, ".env");
  expect(statSync(envFile).mode & 0o777).toBe(0o600);
  const text = readFileSync(envFile, "utf8");
  expect(text).toContain("# 游戏的 AES 密钥");
  expect(text).toContain("ONEBOT_TARGET=group:123456789");
  expect(loadWritten(dir)).toEqual({
    keys: [[hex(KEY), hex(IV)]],
    onebot: { url: server.url, token: "right-token", target: "group:123456789", timeoutMs: 30_000 },
    publicBaseUrl: "http://192.168.1.20:9478",
    ownerLocale: "zh-Hans",
    summary: `pushes go to onebot group:123456789 at 127.0.0.1:${server.port} for every player not in push_map.json (the one channel configured)`,
  });
  expect(readdirSync(dir).sort()).toEqual([".env"]);
}, 60_000);

test("English, Bark: an unreachable server is said in English and asked again; the device key lands in config/bark_map.json", async () => {
  const dir = folder();
  const server = await recording();
  server.setDefault("/push", { body: { code: 200, message: "success" } });
  const refused = await refusedUrl();
  // C.UTF-8 offers English (5); Bark is the third channel for a non-Chinese reader.
  const answers = ["", KEY, IV, "3", `${refused}/DeViCeKeY123/hello`, "1", `${server.url}/DeViCeKeY123/hello`, NO_ADDRESS];
  const { out, err, code } = await wizard(dir, { LANG: "C.UTF-8" }, answers);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  expect(out).toContain("> [5]:");
  // The shell said nothing of a language: the first question is asked in every one.
  expect(out).toContain("语言（本向导、服务器日志和命令行使用）");
  expect(out).toMatch(/the test message did not arrive: cannot reach the server \(bark: network error/);
  expect(out).toContain("test message sent");
  expect(out).not.toContain("DeViCeKeY123");
  const pushed = server.requestsTo("/push");
  expect(pushed.length).toBe(1);
  expect(pushed[0]!.json).toMatchObject({ device_key: "DeViCeKeY123", title: "MySekai: test message" });
  expect(JSON.parse(readFileSync(join(dir, "config", "bark_map.json"), "utf8"))).toEqual({ phone: "DeViCeKeY123" });
  const loaded = loadWritten(dir);
  expect({ locale: loaded.ownerLocale, summary: loaded.summary }).toEqual({
    locale: "en",
    summary: "pushes go to bark phone for every player not in push_map.json (the one Bark device in bark_map.json)",
  });
  expect(readFileSync(join(dir, ".env"), "utf8")).toContain(`BARK_SERVER=${server.url}`);
}, 60_000);

test("an existing .env is replaced only with consent, the old one kept as .env.bak", async () => {
  const dir = folder();
  writeFileSync(join(dir, ".env"), "OLD=1\n");
  const refused = await wizard(dir, { LANG: "zh_CN.UTF-8" }, ["", "n"]);
  expect(refused.code).toBe(0);
  expect(refused.out).toContain(".env 保持不变");
  expect(readdirSync(dir)).toEqual([".env"]);
  expect(readFileSync(join(dir, ".env"), "utf8")).toBe("OLD=1\n");

  // The one-file build's `mysekai-ingest init` is the same wizard (src/main.ts dispatches it).
  const replaced = await wizard(dir, { LANG: "zh_CN.UTF-8" }, ["", "y", KEY, IV, "6", NO_ADDRESS], ["src/main.ts", "init"]);
  expect(replaced.code).toBe(0);
  expect(replaced.out).toContain("1. mysekai-ingest");
  expect(readFileSync(join(dir, ".env.bak"), "utf8")).toBe("OLD=1\n");
  expect(loadWritten(dir)).toMatchObject({ keys: [[hex(KEY), hex(IV)]], onebot: null, publicBaseUrl: null });
}, 60_000);

test("input ending mid-way, or Ctrl-C, writes nothing", async () => {
  const dir = folder();
  const ended = await wizard(dir, { LANG: "zh_CN.UTF-8" }, ["", KEY, IV, "1", await refusedUrl()]);
  expect(ended.code).toBe(1);
  expect(ended.out).toContain("已退出：没有写入任何东西。");
  expect(readdirSync(dir)).toEqual([]);

  const run = spawnWizard(dir, { LANG: "C.UTF-8" });
  run.stdin.write(`\n${KEY}\n`);
  await run.stdin.flush();
  const reader = run.stdout.getReader();
  let out = "";
  /** Reads stdout until `until` holds of what came so far, or it ends. */
  const readUntil = async (until: () => boolean) => {
    while (!until()) {
      const { value, done } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
    }
  };
  await readUntil(() => out.includes("AES IV"));
  run.kill("SIGINT");
  await readUntil(() => false);
  expect(await run.exited).toBe(130);
  expect(out).toContain("stopped: nothing was written.");
  expect(out).not.toContain(KEY);
  expect(readdirSync(dir)).toEqual([]);
}, 60_000);

test("Japanese, a webhook that never answers: the test gives up within its few seconds, says so, and the settings can be kept", async () => {
  const dir = folder();
  const server = await recording();
  server.setDefault("/hook", { delayMs: 30_000, body: "late" });
  const started = Date.now();
  const { out, code } = await wizard(dir, { LANG: "ja_JP.UTF-8" }, ["", KEY, IV, "5", `${server.url}/hook`, "", "2", NO_ADDRESS]);
  expect(code).toBe(0);
  expect(Date.now() - started).toBeLessThan(25_000);
  expect(out).toContain("テストメッセージが届きませんでした：時間内に応答なし（webhook: no answer within 5000 ms）");
  expect(server.requestsTo("/hook").length).toBe(1);
  expect(readFileSync(join(dir, ".env"), "utf8")).toContain(`WEBHOOK_URL=${server.url}/hook`);
}, 60_000);

test("a config/bark_map.json the service would refuse is left for the owner to mend: said, and nothing written", async () => {
  const dir = folder();
  const server = await recording();
  server.setDefault("/push", { body: { code: 200, message: "success" } });
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "bark_map.json"), "{oops");
  const { out, err, code } = await wizard(dir, { LANG: "zh_CN.UTF-8" }, ["", KEY, IV, "2", `${server.url}/DeViCeKeY123/hello`, NO_ADDRESS]);
  expect(out).toContain("测试消息已发出");
  expect({ code, err: err.trim() }).toEqual({ code: 1, err: `✗ ${join(dir, "config", "bark_map.json")}：不是有效的 JSON` });
  expect(readFileSync(join(dir, "config", "bark_map.json"), "utf8")).toBe("{oops");
  expect(readdirSync(dir)).toEqual(["config"]);
}, 60_000);
