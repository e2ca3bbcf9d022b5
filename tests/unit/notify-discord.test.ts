import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { DISCORD_CONTENT_LIMIT, sendDiscord } from "../../src/notify/discord.ts";
import { refusedUrl, startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, fakePng, fileBytes, images, message } from "./notify-fixtures.ts";

const server = await startRecordingServer({ defaultResponse: { body: { id: "1" } } });
const hookPath = "/api/webhooks/1234567890/SeCrEt-webhook-token";
const webhookUrl = `${server.url}${hookPath}`;
const options = { webhookUrl, timeoutMs: 2000 };
const secrets = [webhookUrl, "SeCrEt-webhook-token"];

afterAll(() => server.stop());
beforeEach(() => server.reset());

interface Payload {
  content?: string;
  allowed_mentions?: { parse: string[] };
  attachments: { id: number; filename: string }[];
}

function payload(form: FormData | null): Payload {
  return JSON.parse(String(form?.get("payload_json")));
}

describe("discord", () => {
  test("posts payload_json with content and attachments, and the PNGs as files[n]", async () => {
    const msg = message();
    await sendDiscord(msg, options);
    const request = server.requests[0];
    expect([request?.method, request?.path, request?.query.wait]).toEqual(["POST", hookPath, "true"]);
    expect(payload(request?.form ?? null)).toEqual({
      content: `${msg.title}\n${msg.summaryText}`,
      allowed_mentions: { parse: [] },
      attachments: msg.images.map((image, i) => ({ id: i, filename: image.name })),
    });
    const file = await fileBytes(request?.form ?? null, "files[2]");
    expect(file).toEqual({ name: "overview.png", bytes: fakePng(3) });
  });

  test("over ten files are split into several messages; content only in the first, within 2000 chars", async () => {
    await sendDiscord(message({ images: images(15), summaryText: "y".repeat(3000) }), options);
    const payloads = server.requests.map((r) => payload(r.form));
    expect(payloads.map((p) => p.attachments.length)).toEqual([8, 7]);
    expect(payloads[0]?.content?.length).toBeLessThanOrEqual(DISCORD_CONTENT_LIMIT);
    expect(payloads[1]?.content).toBeUndefined();
    expect(payloads[1]?.attachments[0]).toEqual({ id: 0, filename: "site_9.png" });
    expect(server.requests[1]?.form?.get("files[0]")).toBeInstanceOf(Blob);
  });

  test("no images: one message with content and no attachments", async () => {
    await sendDiscord(message({ images: [] }), options);
    expect(server.requests).toHaveLength(1);
    expect(payload(server.requests[0]?.form ?? null).attachments).toEqual([]);
  });

  test("429 honours retry_after (seconds, fractional) and falls back to Retry-After", async () => {
    server.respond(hookPath, { status: 429, body: { message: "You are being rate limited.", retry_after: 1.5, global: false } });
    const limited = await deliveryFailure(sendDiscord(message(), options), secrets);
    expect([limited.permanent, limited.retryAfterMs]).toEqual([false, 1500]);
    server.respond(hookPath, { status: 429, headers: { "retry-after": "4" }, body: "" });
    expect((await deliveryFailure(sendDiscord(message(), options), secrets)).retryAfterMs).toBe(4000);
  });

  test("404 Unknown Webhook is permanent; 502 retryable; the webhook URL never appears", async () => {
    server.respond(hookPath, { status: 404, body: { message: `Unknown Webhook ${webhookUrl}`, code: 10015 } });
    const gone = await deliveryFailure(sendDiscord(message(), options), secrets);
    expect(gone.permanent).toBe(true);
    expect(gone.message).toContain(`${server.url}/***`);
    server.respond(hookPath, { status: 502, body: "bad gateway" });
    expect((await deliveryFailure(sendDiscord(message(), options), secrets)).permanent).toBe(false);
  });

  test("connection refused is retryable", async () => {
    const dead = `${await refusedUrl()}${hookPath}`;
    const error = await deliveryFailure(sendDiscord(message(), { ...options, webhookUrl: dead }), [dead, "SeCrEt-webhook-token"]);
    expect(error.permanent).toBe(false);
  });
});
