import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/index.ts";
import { configuredChannels, redact, sendTo } from "../../src/notify/channels.ts";
import { balancedChunks, truncateText } from "../../src/notify/message.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, message } from "./notify-fixtures.ts";

const server = await startRecordingServer({ defaultResponse: { body: { ok: true, code: 200, status: "ok", retcode: 0 } } });
afterAll(() => server.stop());
beforeEach(() => server.reset());

const config = loadConfig({
  TELEGRAM_BOT_TOKEN: "1:TelegramSecret",
  TELEGRAM_CHAT_ID: "5",
  TELEGRAM_API_BASE: server.url,
  BARK_SERVER: server.url,
  NOTIFY_TIMEOUT_MS: "2000",
}).notify;
const barkKeys = { alice: "AliceKey" };

describe("sendTo", () => {
  test("dispatches to the routed channel with its configuration", async () => {
    await sendTo({ channel: "telegram", target: "default" }, message(), config, barkKeys);
    await sendTo({ channel: "bark", target: "alice" }, message({ images: [] }), config, barkKeys);
    expect(server.requests.map((r) => r.path)).toEqual(["/bot1:TelegramSecret/sendMediaGroup", "/push"]);
    expect((server.requests[1]?.json as { device_key: string }).device_key).toBe("AliceKey");
  });

  test("unconfigured channels, unknown aliases and problem targets fail permanently without sending", async () => {
    for (const channel of ["discord", "onebot", "webhook"] as const) {
      const error = await deliveryFailure(sendTo({ channel, target: "default" }, message(), config, barkKeys), []);
      expect([error.permanent, error.message]).toEqual([true, `${channel}: channel ${channel} is not configured`]);
    }
    const noBark = await deliveryFailure(sendTo({ channel: "bark", target: "x" }, message(), config, {}), []);
    expect(noBark.message).toBe("bark: channel bark is not configured");
    const unknown = await deliveryFailure(sendTo({ channel: "bark", target: "zed" }, message(), config, barkKeys), []);
    expect(unknown.message).toContain('"zed" is not in bark_map.json');
    const flagged = await deliveryFailure(sendTo({ channel: "bark", target: "q", problem: "no such alias" }, message(), config, barkKeys), []);
    expect([flagged.permanent, flagged.message]).toEqual([true, "bark: no such alias"]);
    expect(server.requests).toHaveLength(0);
  });

  test("configuredChannels lists what can deliver", () => {
    expect([...configuredChannels(config, barkKeys)].sort()).toEqual(["bark", "telegram"]);
    expect([...configuredChannels(loadConfig({ WEBHOOK_URL: "http://h" }).notify, {})]).toEqual(["webhook"]);
  });
});

describe("redact", () => {
  test("replaces secrets, escaped secrets, and the path of secret URLs", () => {
    const hook = "https://discord.com/api/webhooks/1/tok";
    const text = `POST ${hook}?wait=true failed; path /api/webhooks/1/tok; key a/b?c (a%2Fb%3Fc)`;
    expect(redact(text, [hook, "a/b?c", ""])).toBe(
      "POST https://discord.com/***?wait=true failed; path /***; key *** (***)",
    );
    expect(redact("chat 12 ok", ["12"])).toBe("chat 12 ok");
  });

  test("a webhook URL's user:password is hidden as a receiver's JSON echoes it too (PHP's \\/, Go's \\u0026)", () => {
    const url = "https://dw3:Tig%26er%2F99pass@hooks.example/echo";
    const echoed = [`{"php":"dw3:Tig&er\\/99pass"}`, `{"go":"dw3:Tig\\u0026er/99pass"}`, `{"both":"Tig\\u0026er\\/99pass"}`];
    for (const text of echoed) expect(redact(text, [url])).not.toMatch(/Tig|99pass/);
  });
});

describe("text helpers", () => {
  test("truncateText keeps the limit and never splits a surrogate pair", () => {
    expect(truncateText("short", 10)).toBe("short");
    const cut = truncateText("a".repeat(8) + "😀😀", 10);
    expect(cut.length).toBeLessThanOrEqual(10);
    expect(cut).toBe("aaaaaaaa…");
    expect(truncateText("😀😀😀", 4)).toBe("😀…");
  });

  test("balancedChunks splits evenly", () => {
    expect(balancedChunks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 10).map((c) => c.length)).toEqual([6, 5]);
    expect(balancedChunks([1, 2, 3], 10)).toEqual([[1, 2, 3]]);
    expect(balancedChunks([], 10)).toEqual([]);
    expect(balancedChunks(Array.from({ length: 21 }, (_, i) => i), 10).map((c) => c.length)).toEqual([7, 7, 7]);
  });
});

describe("recording server helper", () => {
  test("scripted queues, per-path defaults, function responders and waitForRequests", async () => {
    server.respond("/q", { status: 201, body: "first" });
    server.setDefault("/q", (req) => ({ status: 202, body: { echo: req.query.x } }));
    const waiting = server.waitForRequests(3, 2000);
    const a = await fetch(`${server.url}/q`, { method: "PUT", body: "hi" });
    const b = await fetch(`${server.url}/q?x=7`);
    const c = await fetch(`${server.url}/other`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "k=v",
    });
    expect([a.status, await a.text(), b.status, await b.json(), c.status]).toEqual([201, "first", 202, { echo: "7" }, 200]);
    const seen = await waiting;
    expect(seen.map((r) => [r.method, r.target])).toEqual([["PUT", "/q"], ["GET", "/q?x=7"], ["POST", "/other"]]);
    expect(seen[0]?.text).toBe("hi");
    expect(seen[2]?.form?.get("k")).toBe("v");
    await expect(server.waitForRequests(4, 50)).rejects.toThrow("expected 4 request(s) within 50 ms, got 3");
  });
});
