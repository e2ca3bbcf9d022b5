import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { parseOneBotTarget, sendOneBot } from "../../src/notify/onebot.ts";
import { refusedUrl, startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, fakePng, images, message } from "./notify-fixtures.ts";

const token = "onebot-access-T0ken";
const server = await startRecordingServer({ defaultResponse: { body: { status: "ok", retcode: 0, data: { message_id: 1 } } } });
const options = { url: server.url, token, target: "group:123456789012", timeoutMs: 2000 };

afterAll(() => server.stop());
beforeEach(() => server.reset());

interface Sent {
  group_id?: number;
  user_id?: number;
  message: { type: string; data: Record<string, string> }[];
}

describe("onebot", () => {
  test("group target: send_group_msg with a numeric id, text then base64 images, bearer token", async () => {
    const msg = message();
    await sendOneBot(msg, options);
    const request = server.requests[0];
    expect([request?.method, request?.path]).toEqual(["POST", "/send_group_msg"]);
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.text).toContain('"group_id":123456789012');
    const sent = request?.json as Sent;
    expect(sent.group_id).toBe(123456789012);
    expect(sent.message[0]).toEqual({ type: "text", data: { text: `${msg.title}\n${msg.summaryText}` } });
    expect(sent.message.slice(1).map((s) => s.type)).toEqual(["image", "image", "image"]);
    const file = sent.message[1]?.data.file ?? "";
    expect(file.startsWith("base64://")).toBe(true);
    expect(new Uint8Array(Buffer.from(file.slice("base64://".length), "base64"))).toEqual(fakePng(1));
  });

  test("private target without token: send_private_msg, user_id, no Authorization header", async () => {
    await sendOneBot(message({ images: [] }), { url: `${server.url}/`, token: null, target: "private:10001", timeoutMs: 2000 });
    const request = server.requests[0];
    expect(request?.path).toBe("/send_private_msg");
    expect(request?.headers.authorization).toBeUndefined();
    expect((request?.json as Sent).user_id).toBe(10001);
    expect((request?.json as Sent).message).toHaveLength(1);
  });

  test("more than ten images go out in several messages, text only in the first", async () => {
    await sendOneBot(message({ images: images(11) }), options);
    const sent = server.requests.map((r) => r.json as Sent);
    expect(sent.map((s) => s.message.map((m) => m.type).join(","))).toEqual([
      "text,image,image,image,image,image,image",
      "image,image,image,image,image",
    ]);
  });

  test("targets are validated: digits only, at most 15", async () => {
    expect(parseOneBotTarget("group:42")).toEqual({ kind: "group", id: 42 });
    expect(parseOneBotTarget("private:999999999999999")).toEqual({ kind: "private", id: 999999999999999 });
    for (const bad of ["group:1234567890123456", "group:12a", "channel:1", "group:", "42", "group:0"]) {
      expect(parseOneBotTarget(bad)).toBeNull();
    }
    const error = await deliveryFailure(sendOneBot(message(), { ...options, target: "room:1" }), [token]);
    expect(error.permanent).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  test("failed status: bad-parameter retcodes are permanent, others retryable", async () => {
    server.respond("/send_group_msg", { body: { status: "failed", retcode: 100, msg: "BAD_PARAM", wording: "group not found" } });
    const bad = await deliveryFailure(sendOneBot(message(), options), [token]);
    expect(bad.permanent).toBe(true);
    expect(bad.message).toContain("group not found");
    server.respond("/send_group_msg", { body: { status: "failed", retcode: 103, msg: "SEND_MSG_API_ERROR" } });
    expect((await deliveryFailure(sendOneBot(message(), options), [token])).permanent).toBe(false);
    server.respond("/send_group_msg", { body: { status: "async", retcode: 1 } });
    await sendOneBot(message(), options);
  });

  test("HTTP 401/403 are permanent, 500 and refused retryable; the token never shows", async () => {
    server.respond("/send_group_msg", { status: 403, body: `token ${token} rejected` });
    const denied = await deliveryFailure(sendOneBot(message(), options), [token]);
    expect(denied.permanent).toBe(true);
    server.respond("/send_group_msg", { status: 500, body: "" });
    expect((await deliveryFailure(sendOneBot(message(), options), [token])).permanent).toBe(false);
    const refused = await deliveryFailure(sendOneBot(message(), { ...options, url: await refusedUrl() }), [token]);
    expect(refused.permanent).toBe(false);
  });
});
