import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { sendWebhook, type WebhookConfig } from "../../src/notify/webhook.ts";
import { refusedUrl, startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, images, message } from "./notify-fixtures.ts";

const secret = "whsec-shared-Secret";
const server = await startRecordingServer({ defaultResponse: { status: 204 } });
const hookUrl = `${server.url}/hooks/mysekai?token=url-Embedded-Token`;
const secrets = [secret, hookUrl, "url-Embedded-Token"];
const unsigned: WebhookConfig = { url: hookUrl, secret: null, timeoutMs: 2000 };
const signed: WebhookConfig = { ...unsigned, secret };

afterAll(() => server.stop());
beforeEach(() => server.reset());

describe("webhook", () => {
  test("posts the save event as JSON", async () => {
    const msg = message({ images: images(2, "https://img.example/a") });
    await sendWebhook(msg, unsigned);
    const request = server.requests[0];
    expect([request?.method, request?.path, request?.query.token]).toEqual(["POST", "/hooks/mysekai", "url-Embedded-Token"]);
    expect(request?.headers["x-signature-256"]).toBeUndefined();
    expect(request?.json).toEqual({
      event: "mysekai.save",
      playerId: "7485938033569431560",
      saveId: 42,
      capturedAt: "2025-03-04T05:06:07.000Z",
      title: msg.title,
      summary: msg.summary,
      rareText: msg.summaryText,
      images: [
        { name: "site_1.png", url: "https://img.example/a/site_1.png" },
        { name: "overview.png", url: "https://img.example/a/overview.png" },
      ],
    });
  });

  test("with a secret, X-Signature-256 is the HMAC-SHA256 of the exact body bytes", async () => {
    await sendWebhook(message(), signed);
    const request = server.requests[0];
    const header = request?.headers["x-signature-256"] ?? "";
    const expected = `sha256=${createHmac("sha256", secret).update(request?.body ?? new Uint8Array()).digest("hex")}`;
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(timingSafeEqual(Buffer.from(header), Buffer.from(expected))).toBe(true);
    const forged = createHmac("sha256", "other").update(request?.body ?? new Uint8Array()).digest("hex");
    expect(header).not.toBe(`sha256=${forged}`);
  });

  test("4xx permanent, 5xx and 429 retryable, refused retryable; no URL or secret in errors", async () => {
    server.respond("/hooks/mysekai", { status: 410, body: `gone: ${hookUrl}` });
    const gone = await deliveryFailure(sendWebhook(message(), signed), secrets);
    expect(gone.permanent).toBe(true);
    server.respond("/hooks/mysekai", { status: 500 });
    expect((await deliveryFailure(sendWebhook(message(), signed), secrets)).permanent).toBe(false);
    server.respond("/hooks/mysekai", { status: 429, headers: { "retry-after": "2" } });
    expect((await deliveryFailure(sendWebhook(message(), unsigned), secrets)).retryAfterMs).toBe(2000);
    const dead = `${await refusedUrl()}/hooks?token=url-Embedded-Token`;
    expect((await deliveryFailure(sendWebhook(message(), { ...unsigned, url: dead }), [...secrets, dead])).permanent).toBe(false);
  });

  test("a redirect is not followed (it would carry the payload elsewhere) and counts as permanent", async () => {
    server.respond("/hooks/mysekai", { status: 301, headers: { location: "https://elsewhere.example/" } });
    expect((await deliveryFailure(sendWebhook(message(), unsigned), secrets)).permanent).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
