import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { BARK_BODY_LIMIT, sendBark, type BarkConfig } from "../../src/notify/bark.ts";
import { refusedUrl, startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, images, message } from "./notify-fixtures.ts";

const deviceKey = "k3y/With?odd&chars";
const server = await startRecordingServer({ defaultResponse: { body: { code: 200, message: "success" } } });
const icon = "https://img.example/icon.png";
const bark: BarkConfig = { server: `${server.url}/`, icon, group: null, timeoutMs: 2000 };

afterAll(() => server.stop());
beforeEach(() => server.reset());

type BarkPush = Record<string, string>;

describe("bark", () => {
  test("one push a refresh: the finds as text, the overview inline under its sites' names, the player's page on a tap", async () => {
    const pics = images(3, "https://maps.example/by-id/1/20250304_050607").map((image, i) => ({ ...image, sites: i === 2 ? ["Field", "Beach"] : [`Site ${i + 1}`] }));
    const msg = message({ images: pics, pageUrl: "https://maps.example/p/link-token" });
    await sendBark(msg, { ...bark, group: "mysekai" }, deviceKey);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /push"]);
    expect(server.requests[0]!.json).toEqual({
      device_key: deviceKey,
      icon,
      group: "mysekai",
      title: msg.title,
      subtitle: "Field · Beach",
      body: msg.summaryText,
      image: pics[2]!.url,
      url: "https://maps.example/p/link-token",
    });
  });

  test("a push with site maps alone (a watched route) shows the first and names its site; no page: the tap opens the map", async () => {
    const pics = images(3, "https://maps.example/a").slice(0, 2).map((image, i) => ({ ...image, sites: [`Site ${i + 1}`] }));
    await sendBark(message({ images: pics }), bark, deviceKey);
    const push = server.requests[0]!.json as BarkPush;
    expect([server.requests.length, push.subtitle, push.image, push.url]).toEqual([1, "Site 1", pics[0]!.url!, pics[0]!.url!]);
  });

  test("the device key travels in the JSON body, never in the URL, so '/' and '?' survive", async () => {
    await sendBark(message({ images: [] }), bark, deviceKey);
    const request = server.requests[0];
    expect(request?.target).toBe("/push");
    expect((request?.json as BarkPush).device_key).toBe(deviceKey);
  });

  test("images without a URL mean no image push, and no icon or group when unset", async () => {
    await sendBark(message({ images: images(2) }), { ...bark, icon: null }, deviceKey);
    expect(server.requests.map((r) => Object.keys(r.json as BarkPush).sort())).toEqual([["body", "device_key", "title"]]);
  });

  test("a long summary is cut to Bark's body limit", async () => {
    await sendBark(message({ images: [], summaryText: "稀有".repeat(2000) }), bark, deviceKey);
    const body = (server.requests[0]?.json as BarkPush).body ?? "";
    expect(body.length).toBeLessThanOrEqual(BARK_BODY_LIMIT);
    expect(body.endsWith("…")).toBe(true);
  });

  test("a non-200 code in a 200 answer fails; 4xx codes are permanent", async () => {
    server.respond("/push", { status: 200, body: { code: 400, message: "failed to get device token" } });
    const error = await deliveryFailure(sendBark(message(), bark, deviceKey), [deviceKey, encodeURIComponent(deviceKey)]);
    expect(error.permanent).toBe(true);
    expect(error.message).toContain("device token");
  });

  test("HTTP errors: 400 permanent, 500 and 429 retryable, with the key redacted", async () => {
    server.respond("/push", { status: 400, body: { code: 400, message: `bad key ${deviceKey}` } });
    const bad = await deliveryFailure(sendBark(message(), bark, deviceKey), [deviceKey]);
    expect(bad.permanent).toBe(true);
    expect(bad.message).toContain("bad key ***");
    server.respond("/push", { status: 503, body: "busy" });
    expect((await deliveryFailure(sendBark(message(), bark, deviceKey), [deviceKey])).permanent).toBe(false);
    server.respond("/push", { status: 429, headers: { "retry-after": "3" }, body: "slow down" });
    const limited = await deliveryFailure(sendBark(message(), bark, deviceKey), [deviceKey]);
    expect([limited.permanent, limited.retryAfterMs]).toEqual([false, 3000]);
  });

  test("connection refused is retryable", async () => {
    const error = await deliveryFailure(sendBark(message(), { ...bark, server: await refusedUrl() }, deviceKey), [deviceKey]);
    expect(error.permanent).toBe(false);
  });
});
