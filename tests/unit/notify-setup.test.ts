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
  return loadNotifySetup(loadConfig(env).notify, configDir);
}

const WEBHOOK = { WEBHOOK_URL: "https://hooks.example:8443/in/token-in-path?key=token-in-query", WEBHOOK_SECRET: "hmac-secret" };
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
    expect(two.defaultRoute).toBe("telegram");
    expect(two.warnings.join("\n")).toContain("routes to telegram for (default route), but telegram is not configured; NOTIFY_DEFAULT sets the default route");
  });

  test("NOTIFY_DEFAULT wins, none included; several channels keep telegram and the warning", () => {
    expect(setupOf({ ...WEBHOOK, NOTIFY_DEFAULT: "none" }).defaultRoute).toBe("none");
    expect(setupOf({ ...WEBHOOK, NOTIFY_DEFAULT: "none" }).summary).toBe("pushes go to no one not in push_map.json (NOTIFY_DEFAULT)");
    const both = setupOf({ ...WEBHOOK, ...DISCORD });
    expect(both.defaultRoute).toBe("telegram");
    expect(both.summary).toBe("pushes go to telegram (not configured) for every player not in push_map.json (the default route; NOTIFY_DEFAULT sets another)");
    expect(both.warnings).toHaveLength(1);
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
