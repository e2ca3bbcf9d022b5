/**
 * The owner's language outside the pages (OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG), through a real start and
 * the real CLI: the start log, every command's output and help, and a setting that stops the start (its name as
 * written; an English shell reads the English text word for word, as operators and tests match it).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REGION_HOSTS, REGIONS } from "../../src/capture/regions.ts";
import { JOB_STAGES } from "../../src/store/model/jobs.ts";
import { englishWords } from "../helpers/english-words.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";
import { startServer } from "../helpers/server.ts";

const { pair, env: keyEnv } = testKeys();

/** Starts the service with `env`, expects it to stop, and returns what it printed. */
async function refusedStart(env: Record<string, string>, prepare?: (dataDir: string) => void): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "mysekai-start-error-"));
  try {
    prepare?.(dataDir);
    const error = await startServer({ env, dataDir }).then(
      () => null,
      (caught: Error) => caught,
    );
    expect(error?.message ?? "it started").toMatch(/^server exited \(1\)/);
    return error!.message;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const SHORT_KEY = { AES_KEY: "abcde", AES_IV: "0123456789abcdef" };

describe("why the start stops, in the owner's language", () => {
  test("LANG=zh_CN.UTF-8: a short AES_KEY, a bad number, a missing setting, a broken push_map.json are said in Chinese", async () => {
    const zh = { LANG: "zh_CN.UTF-8" };
    expect(await refusedStart({ ...zh, ...SHORT_KEY })).toContain("[SERVER] 无法启动：AES_KEY 必须是 16、24 或 32 字节，现在是 5 字节");
    expect(await refusedStart({ ...zh, UPLOAD_MAX_OPEN: "many" })).toContain("无法启动：UPLOAD_MAX_OPEN 必须是 1 到 100000 之间的整数，现在是“many”");
    expect(await refusedStart({ ...zh, AES_KEY: "abcdefghijklmnop" })).toContain("无法启动：缺少 AES_IV（已设置 AES_KEY，两者都需要）");
    expect(await refusedStart({ ...zh, ONEBOT_URL: "http://127.0.0.1:3000" })).toContain("无法启动：设置了 ONEBOT_URL 就必须设置 ONEBOT_TARGET（group:<id> 或 private:<id>）");
    const brokenPushMap = (dataDir: string) => {
      mkdirSync(join(dataDir, "config"), { recursive: true });
      writeFileSync(join(dataDir, "config", "push_map.json"), "{oops");
    };
    expect(await refusedStart(zh, brokenPushMap)).toMatch(/无法启动：\S*config\/push_map\.json：不是有效的 JSON/);
  }, 60_000);

  test("OWNER_LOCALE over LANG, LC_ALL over LANG; a bad OWNER_LOCALE is itself said in the shell's language", async () => {
    expect(await refusedStart({ LANG: "zh_CN.UTF-8", OWNER_LOCALE: "ja", ...SHORT_KEY })).toContain("[SERVER] 起動できません：AES_KEY は 16・24・32 バイトのいずれかにしてください（現在 5 バイト）");
    expect(await refusedStart({ LANG: "en_US.UTF-8", LC_ALL: "zh_TW.UTF-8", PORT: "70000" })).toContain("無法啟動：PORT 必須是 0 到 65535 之間的整數，目前是「70000」");
    expect(await refusedStart({ LANG: "ko_KR.UTF-8", OWNER_LOCALE: "fr" })).toContain("OWNER_LOCALE은(는) zh-Hans, zh-Hant, ja, ko, en 중 하나여야 합니다(zh는 zh-Hans)(현재 “fr”)");
  }, 60_000);

  test("an English shell reads the English text as it always was", async () => {
    const out = await refusedStart({ LANG: "C.UTF-8", ...SHORT_KEY });
    expect(out).toContain("[SERVER] cannot start: AES_KEY must be 16, 24 or 32 bytes, got 5");
    expect(await refusedStart({ UPLOAD_MAX_OPEN: "many" })).toContain('cannot start: UPLOAD_MAX_OPEN must be an integer from 1 to 100000, got "many"');
  }, 60_000);

  test("the CLI says a bad setting in the owner's language too", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mysekai-cli-error-"));
    try {
      const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/cli.ts"), "jobs"], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, LANG: "zh_CN.UTF-8", ...SHORT_KEY },
        stderr: "pipe",
        stdout: "pipe",
      });
      const [err, code] = await Promise.all([new Response(run.stderr).text(), run.exited]);
      expect({ code, err: err.trim() }).toEqual({ code: 1, err: "配置错误：AES_KEY 必须是 16、24 或 32 字节，现在是 5 字节" });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

/**
 * The start log's sentences and the CLI's, for an owner whose shell is zh_CN.UTF-8. A log line's
 * `[PREFIX]` and `key=value` fields stay as they are (for grep), a command line is what the owner types, and job
 * states are values typed after --state: the rest is held to the pages' rule.
 */
describe("the start log and the CLI in the owner's language (LANG=zh_CN.UTF-8)", () => {
  // Job states are typed after --state; stages are the log's stage= values, shown as the log has them; a command
  // named back (inspect, watch nudge, data-webhooks add) is named as typed, like a URL's user:password, HTTP Basic
  // and the servers' codes (jp, cn…).
  const typed = new Set([...JOB_STAGES, ...REGIONS, "inspect", "nudge", "add", "user", "password", "Basic", "http", "pending", "running", "pending_retry", "waiting_for_key", "failed", "done", "on", "off", "raw", "json", "zstd", "type", "id", "mode", "watched", "telegram", "tg", "bark", "discord", "onebot", "webhook", "none", "cli", "Authorization", "Bearer"]);
  const sentences = (text: string) =>
    text
      .split("\n")
      .filter((line) => !/^(npm run cli --|mysekai-ingest (?!\d))/.test(line.trimStart()))
      // What the owner typed, quoted back, stays as typed too.
      .map((line) => line.replace(/^\[[A-Z]+\]( WARN)?/, "").replace(/\S+=\S+/g, "").replace(/“[^”]*”|"[^"]*"/g, ""))
      .join("\n")
      // File and setting names, flags and placeholders are written as typed.
      .replace(/\S*[._<>{}@*-]\S*/g, "");
  const english = (text: string) => englishWords(sentences(text)).filter((word) => !typed.has(word));

  test("every line the owner reads at start and from the commands is Chinese, bar names, commands and fields", async () => {
    const zh = { ...keyEnv, LANG: "zh_CN.UTF-8", ONEBOT_URL: "http://127.0.0.1:9/onebot", ONEBOT_TARGET: "group:42", PUBLIC_BASE_URL: "http://192.168.1.20:9478" };
    const running = await startServer({ env: zh });
    try {
      await running.waitForOutput("[CONFIG] WARN PUBLIC_BASE_URL 是 http://192.168.1.20:9478，一个内网地址");
      await running.waitForOutput("/setup");
      expect(running.output()).toContain("[SERVER] 已开始监听 url=");
      expect(english(running.output())).toEqual([]);
      const cli = (...args: string[]) => ownerCliWith({ LANG: "zh_CN.UTF-8" }, running, ...args);
      const saved = await fetch(`${running.url}/uploadSaveData`, {
        method: "POST",
        body: encryptedSave(pair),
        headers: { "X-Upload-Id": "zh-cli-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/${PLAYER_ID}/mysekai` },
      });
      expect(saved.status).toBe(200);
      await running.waitForOutput("[JOB]");
      const hook = `http://user:pass@127.0.0.1:9/hook/{user_id}`;
      const commands = [
        ["help"], ["players", "add", PLAYER_ID, "--name", "小明"], ["jobs"], ["retry", "--failed"], ["reprocess", "abc"], ["nosuch"],
        ["gc"], ["players", "public", PLAYER_ID, "on"], ["inspect"],
        ["api-tokens", "add", "qq_bot", "--players", PLAYER_ID], ["api-tokens", "list"], ["api-tokens", "revoke", "qq_bot"], ["api-tokens", "revoke", "qq_bot"], ["api-tokens", "list"],
        ["data-webhooks", "add", "http://127.0.0.1:9/hook"], ["data-webhooks", "add", hook, "--payload", "raw", "--check-url", "http://127.0.0.1:9/c/{user_id}"], ["data-webhooks", "list"],
        ["data-webhooks", "remove", "1"], ["data-webhooks", "remove", "1"], ["data-webhooks", "list"],
        ["watch", "add", PLAYER_ID, "钻石", "月光石"], ["watch", "add", PLAYER_ID, "没有这种东西"], ["watch", "list"], ["watch", "remove", PLAYER_ID, "钻石"], ["watch", "list", "1"],
        ["watch", "nudge", PLAYER_ID, "on", "3"], ["watch", "nudge", PLAYER_ID, "on", "40"], ["watch", "nudge", PLAYER_ID, "off"],
        ["catalogue", "show"], ["catalogue", "update", "jp=/no/such/folder"], ["catalogue", "update", "xx"],
      ];
      const outputs = [];
      for (const args of commands) outputs.push({ args: args.join(" "), ...(await cli(...args)) });
      // The entry point's own help (`mysekai-ingest --help` in the one-file build).
      const entry = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), "--help"], { env: { PATH: process.env.PATH ?? "", LANG: "zh_CN.UTF-8" } });
      outputs.push({ args: "--help", out: entry.stdout.toString(), err: entry.stderr.toString(), code: entry.exitCode });
      expect(outputs[0]!.out).toContain("npm run cli -- players add <playerId> [--name N] [--route R]");
      expect(outputs[1]!.out).toContain("推送和地图上这位玩家显示为“小明”");
      const left = outputs.map(({ args, out, err }) => ({ args, english: english(out + "\n" + err) })).filter((o) => o.english.length > 0);
      expect(left).toEqual([]);
      // The jobs table's headers, the watched resources by their Chinese names.
      expect(outputs[2]!.out).toMatch(/│ *任务 *│ *对象 *│ *玩家 *│ *阶段 *│ *状态 *│/);
      expect(outputs.find((o) => o.args === "watch list")!.out).toContain("mysekai_material:12\t钻石");
      // The test sees English: the same commands in an English shell are full of words it refuses.
      expect(english((await ownerCliWith({ LANG: "C.UTF-8" }, running, "help")).out)).toEqual(expect.arrayContaining(["list", "jobs"]));
    } finally {
      await running.stop("SIGKILL");
      running.cleanup();
    }
  }, 180_000);
});

test("the demo says what it did in the owner's language (the server's and the network's own words left as they come)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mysekai-demo-zh-"));
  try {
    const demo = (env: Record<string, string>, ...args: string[]) => {
      const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), "demo", ...args], { env: { PATH: process.env.PATH ?? "", LANG: "zh_CN.UTF-8", ...env } });
      return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
    };
    const here = demo({}, join(dataDir, "demo"));
    expect({ code: here.code, err: here.err }).toEqual({ code: 0, err: "" });
    expect(here.out).toMatch(/^本次演示的服务运行在 http:\/\/127\.0\.0\.1:\d+\/，数据在 /);
    expect(here.out).toContain("地图和摘要已归档到 ");
    const outputs = [here, demo({}, "--to", "http://127.0.0.1:9"), demo({}, "a", "b")];
    const left = outputs.map(({ out, err }) => englishWords((out + "\n" + err).replace(/\S*[._<>{}@*-]\S*/g, "").replace(/“[^”]*”|"[^"]*"/g, ""))).flat();
    // POST and OK: the method and the server's own answer.
    expect(left.filter((word) => !["POST", "OK", "demo", "dataDir", "url"].includes(word))).toEqual([]);
    expect(outputs[1]!.err).toStartWith("没有配置 AES 密钥");
    const unreachable = demo({ ...keyEnv }, "--to", "http://127.0.0.1:9");
    expect({ code: unreachable.code, err: unreachable.err }).toEqual({ code: 1, err: expect.stringMatching(/^连不上 http:\/\/127\.0\.0\.1:9：/) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
