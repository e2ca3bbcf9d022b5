/** The default route a first configuration gets, and the start line that says where pushes go. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/index.ts";
import { loadNotifySetup } from "../../src/notify/setup.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The setup of `env` with these routing files in its config folder. */
function setupOf(env: Record<string, string>, files: { pushMap?: object; barkMap?: object } = {}) {
  const configDir = mkdtempSync(join(tmpdir(), "mysekai-notify-setup-"));
  folders.push(configDir);
  if (files.pushMap) writeFileSync(join(configDir, "push_map.json"), JSON.stringify(files.pushMap));
  if (files.barkMap) writeFileSync(join(configDir, "bark_map.json"), JSON.stringify(files.barkMap));
  const config = loadConfig(env);
  return loadNotifySetup(config.notify, configDir, config.ownerLocale);
}

const WEBHOOK = { WEBHOOK_URL: "https://hooks.example:8443/in/token-in-path?key=token-in-query", WEBHOOK_SECRET: "hmac-secret" };
const TELEGRAM = { TELEGRAM_BOT_TOKEN: "1:tg-token", TELEGRAM_CHAT_ID: "-100" };
const ONEBOT = { ONEBOT_URL: "http://127.0.0.1:5700", ONEBOT_TARGET: "group:42", ONEBOT_TOKEN: "onebot-token" };
const DISCORD = { DISCORD_WEBHOOK_URL: "https://discord.example/api/webhooks/1/discord-token" };

describe("the default route", () => {
  test("one channel configured, no NOTIFY_DEFAULT: every player not in push_map.json goes to it, with no warning", () => {
    for (const [env, route] of [
      [WEBHOOK, "webhook"],
      [DISCORD, "discord"],
      [{ ONEBOT_URL: "http://127.0.0.1:5700", ONEBOT_TARGET: "group:42", ONEBOT_TOKEN: "onebot-token" }, "onebot"],
      [{ TELEGRAM_BOT_TOKEN: "1:tg-token", TELEGRAM_CHAT_ID: "-100" }, "telegram"],
    ] as const) {
      const setup = setupOf(env);
      expect([setup.defaultRoute, setup.warnings]).toEqual([route, []]);
      expect(setup.summary).toEndWith("for every player not in push_map.json (the one channel configured)");
    }
  });

  test(".env.example with only one channel filled in: that channel, its other blanks count as unset", async () => {
    const example: Record<string, string> = {};
    for (const line of (await Bun.file(join(import.meta.dir, "..", "..", ".env.example")).text()).split("\n")) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match) example[match[1]!] = match[2]!;
    }
    expect(setupOf(example).pushesOff).toBe(true);
    for (const [name, channel] of [["WEBHOOK_URL", "webhook"], ["DISCORD_WEBHOOK_URL", "discord"]] as const) {
      const setup = setupOf({ ...example, [name]: "https://hooks.example/in" });
      expect([setup.defaultRoute, setup.warnings]).toEqual([channel, []]);
    }
  });

  test("Bark alone: the one device in bark_map.json; several devices are not guessed between", () => {
    expect(setupOf({}, { barkMap: { phone: "device-key" } }).defaultRoute).toBe("phone");
    expect(setupOf({}, { barkMap: { phone: "device-key" } }).summary).toBe("pushes go to bark phone for every player not in push_map.json (the one Bark device in bark_map.json)");
    const two = setupOf({}, { barkMap: { mine: "key-1", friend: "key-2" } });
    expect([two.defaultRoute, two.warnings]).toEqual(["none", []]);
    expect(two.summary).toBe("pushes go to no one not in push_map.json (Bark devices get only the players push_map.json routes to them)");
  });

  test("NOTIFY_DEFAULT wins, none included; several channels: every one configured, never one that is not", () => {
    expect(setupOf({ ...WEBHOOK, NOTIFY_DEFAULT: "none" }).defaultRoute).toBe("none");
    expect(setupOf({ ...WEBHOOK, NOTIFY_DEFAULT: "none" }).summary).toBe("pushes go to no one not in push_map.json (NOTIFY_DEFAULT)");
    const both = setupOf({ ...WEBHOOK, ...DISCORD });
    expect([both.defaultRoute, both.warnings]).toEqual(["discord+webhook", []]);
    expect(both.summary).toBe("pushes go to discord + webhook at hooks.example:8443 for every player not in push_map.json (every channel configured; NOTIFY_DEFAULT sets another route)");
    // QQ and the one Bark phone: both; Telegram, not configured, never.
    const qqBark = setupOf(ONEBOT, { barkMap: { phone: "device-key" } });
    expect([qqBark.defaultRoute, qqBark.warnings]).toEqual(["onebot+phone", []]);
  });

  test("a predecessor's files: Telegram and per-player Bark keep Telegram as everyone else's route", () => {
    const files = { pushMap: { "1": "phone", "2": "tg+phone" }, barkMap: { phone: "device-key" } };
    expect(setupOf(TELEGRAM, files).defaultRoute).toBe("telegram");
    expect(setupOf(TELEGRAM).defaultRoute).toBe("telegram");
    // Several Bark devices never join everyone's route: each is someone's phone.
    expect(setupOf({ ...TELEGRAM, ...ONEBOT }, { barkMap: { mine: "key-1", friend: "key-2" } }).defaultRoute).toBe("telegram+onebot");
  });

  test("the start line in the owner's language: OWNER_LOCALE, else LANG", () => {
    const zh = setupOf({ ...ONEBOT, LANG: "zh_CN.UTF-8" }, { barkMap: { phone: "device-key" } });
    expect(zh.summary).toBe("不在 push_map.json 里的玩家推送到：onebot group:42（127.0.0.1:5700） + bark phone（所有已配置的渠道；NOTIFY_DEFAULT 可另设）");
    expect(setupOf({ LANG: "zh_TW.UTF-8" }).summary).toStartWith("推送已關閉");
    expect(setupOf({ LANG: "zh_CN.UTF-8", OWNER_LOCALE: "ja" }).summary).toStartWith("通知はオフです");
    expect(setupOf({ LANG: "zh_CN.UTF-8", LC_ALL: "C" }).summary).toStartWith("pushes are off");
  });

  test("the start line names hosts, aliases and players routed, never a secret", () => {
    const setup = setupOf(
      { ...WEBHOOK, ...DISCORD, ONEBOT_URL: "http://127.0.0.1:5700/onebot-path-token", ONEBOT_TARGET: "group:42", ONEBOT_TOKEN: "onebot-token", NOTIFY_DEFAULT: "webhook+discord+onebot+phone" },
      { pushMap: { "1": "none", "2": "phone" }, barkMap: { phone: "bark-device-key" } },
    );
    expect(setup.summary).toBe(
      "pushes go to webhook at hooks.example:8443 + discord + onebot group:42 at 127.0.0.1:5700 + bark phone for every player not in push_map.json (NOTIFY_DEFAULT); push_map.json routes 2 players",
    );
    for (const secret of ["token-in-path", "token-in-query", "hmac-secret", "discord-token", "onebot-token", "onebot-path-token", "bark-device-key"]) expect(setup.summary).not.toContain(secret);
  });
});
