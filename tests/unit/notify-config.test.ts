import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/index.ts";

describe("notify configuration", () => {
  test("an empty environment gets every default, and only Bark's settings (its keys come from bark_map.json)", () => {
    expect(loadConfig({}).notify).toEqual({
      defaultRoute: "telegram",
      defaultRouteSet: false,
      imageBase: null,
      repeat: false,
      telegram: null,
      bark: { server: "https://api.day.app", icon: null, group: null, timeoutMs: 30_000 },
      discord: null,
      onebot: null,
      webhook: null,
      timeoutMs: 30_000,
      consumers: { timeoutMs: 10_000, concurrency: 4 },
    });
  });

  test("consumer webhooks' lane: its own timeout (at most NOTIFY_TIMEOUT_MS's by default) and concurrency, below the lease", () => {
    expect(loadConfig({ NOTIFY_TIMEOUT_MS: "3000" }).notify.consumers).toEqual({ timeoutMs: 3000, concurrency: 4 });
    expect(loadConfig({ DATA_WEBHOOK_TIMEOUT_MS: "2500", DATA_WEBHOOK_CONCURRENCY: "2" }).notify.consumers).toEqual({ timeoutMs: 2500, concurrency: 2 });
    expect(() => loadConfig({ DATA_WEBHOOK_CONCURRENCY: "0" })).toThrow(/DATA_WEBHOOK_CONCURRENCY/);
    expect(() => loadConfig({ DATA_WEBHOOK_TIMEOUT_MS: "5000", NOTIFY_TIMEOUT_MS: "1000", JOB_LEASE_MS: "5000" })).toThrow(/DATA_WEBHOOK_TIMEOUT_MS \(5000\) must be below JOB_LEASE_MS/);
  });

  test("NOTIFY_REPEAT is a flag; a bad value stops the start naming it", () => {
    expect(loadConfig({ NOTIFY_REPEAT: "1" }).notify.repeat).toBe(true);
    expect(() => loadConfig({ NOTIFY_REPEAT: "sometimes" })).toThrow(/NOTIFY_REPEAT/);
  });

  test("each configured channel carries NOTIFY_TIMEOUT_MS; Telegram's API base defaults", () => {
    const notify = loadConfig({
      NOTIFY_TIMEOUT_MS: "500",
      FALLBACK_IMAGE_BASE: "https://img.example/mysekai/",
      TELEGRAM_BOT_TOKEN: "1:token",
      TELEGRAM_CHAT_ID: "-100",
      DISCORD_WEBHOOK_URL: "https://discord.example/api/webhooks/1/x",
      ONEBOT_URL: "http://127.0.0.1:3000",
      ONEBOT_TARGET: "group:42",
      WEBHOOK_URL: "https://hooks.example/in",
    }).notify;
    expect(notify.imageBase).toBe("https://img.example/mysekai");
    expect(notify.telegram).toEqual({ apiBase: "https://api.telegram.org", botToken: "1:token", chatId: "-100", timeoutMs: 500 });
    expect(notify.discord).toEqual({ webhookUrl: "https://discord.example/api/webhooks/1/x", timeoutMs: 500 });
    expect(notify.onebot).toEqual({ url: "http://127.0.0.1:3000", token: null, target: "group:42", timeoutMs: 500 });
    expect(notify.webhook).toEqual({ url: "https://hooks.example/in", secret: null, timeoutMs: 500 });
    expect(notify.bark.timeoutMs).toBe(500);
  });
});

describe("NOTIFY_TIMEOUT_MS against JOB_LEASE_MS", () => {
  test("a send timeout at or above the job lease stops the start, naming both", () => {
    expect(() => loadConfig({ NOTIFY_TIMEOUT_MS: "120000" })).toThrow("NOTIFY_TIMEOUT_MS (120000) must be below JOB_LEASE_MS (120000)");
    expect(() => loadConfig({ NOTIFY_TIMEOUT_MS: "5000", JOB_LEASE_MS: "2000" })).toThrow(
      "NOTIFY_TIMEOUT_MS (5000) must be below JOB_LEASE_MS (2000)",
    );
    expect(loadConfig({ NOTIFY_TIMEOUT_MS: "119999" }).notify.bark.timeoutMs).toBe(119_999);
  });
});
