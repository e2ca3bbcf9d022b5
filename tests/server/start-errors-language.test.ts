/**
 * A setting that stops the start, said in the owner's language (OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG, as
 * the start log): through a real start and the real CLI. The setting's name stays as written; an English shell
 * reads the English text word for word (operators and tests match it).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../helpers/server.ts";

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
