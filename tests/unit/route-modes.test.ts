/** push_map.json's route modes: a route object's "mode" (always, watched, off), alone or in a list; strings stay "always". */
import { expect, test } from "bun:test";
import { parseRoutingFiles, routeFor } from "../../src/notify/routing.ts";
import { watchedMessage } from "../../src/pipeline/watch-push.ts";
import type { PushMessage } from "../../src/notify/message.ts";

const barkMap = JSON.stringify({ phone: "device-key" });

test("a route object sets its targets' mode; plain strings and old files keep today's (no mode: always)", () => {
  const routing = parseRoutingFiles(
    JSON.stringify({
      "1": "tg+phone",
      "2": { route: "tg+phone", mode: "watched" },
      "3": ["discord", { route: "phone", mode: "off" }, { route: "webhook", mode: "always" }],
    }),
    barkMap,
  );
  expect(routeFor(routing, "1", "none")).toEqual([{ channel: "telegram", target: "default" }, { channel: "bark", target: "phone" }]);
  expect(routeFor(routing, "2", "none")).toEqual([{ channel: "telegram", target: "default", mode: "watched" }, { channel: "bark", target: "phone", mode: "watched" }]);
  expect(routeFor(routing, "3", "none")).toEqual([{ channel: "discord", target: "default" }, { channel: "bark", target: "phone", mode: "off" }, { channel: "webhook", target: "default" }]);
});

test("a wrong mode or a route object without a route string names the file and the player", () => {
  expect(() => parseRoutingFiles(JSON.stringify({ "7": { route: "tg", mode: "sometimes" } }), null)).toThrow('push_map.json: player "7" has a route mode "sometimes"; expected one of always, watched, off');
  expect(() => parseRoutingFiles(JSON.stringify({ "7": [{ mode: "off" }] }), null)).toThrow('push_map.json: player "7" has a route object without a "route" string');
});

test("the watched message: the first match as its title, the others as its text, the matched sites' maps alone", () => {
  const image = (name: string) => ({ name, png: new Uint8Array(1), url: null });
  const message: PushMessage = { playerId: "1", saveId: 1, capturedAt: new Date(0), title: "MySekai rare resources", summaryText: "● x", summary: {}, pageUrl: null, images: ["site_5.png", "site_6.png", "site_7.png", "overview.png"].map(image) };
  const watched = watchedMessage(message, [
    { resource: "mysekai_material:12", name: "Diamond", siteId: 7, siteName: "Colorful Canyon", count: 2 },
    { resource: "mysekai_material:33", name: "Moonstone", siteId: 5, siteName: "Fledgling Field", count: 1 },
  ]);
  expect([watched.title, watched.summaryText, watched.images.map((i) => i.name)]).toEqual(["Diamond ×2 · Colorful Canyon", "Moonstone ×1 · Fledgling Field", ["site_5.png", "site_7.png"]]);
  expect(watchedMessage(message, [])).toBe(message);
});
