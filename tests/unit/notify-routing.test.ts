import { describe, expect, test } from "bun:test";
import { parseRoute, parseRoutingFiles, routeFor, validateRouting, type Channel } from "../../src/notify/routing.ts";

const barkMap = JSON.stringify({ alice: "aliceDeviceKey", bob: "bobDeviceKey", "c+d": "plusKey", "7": "sevenKey" });
const pushMap = JSON.stringify({
  "7485938033569431560": "telegram",
  "1000000000000000001": "alice",
  "1000000000000000002": "none",
  "1000000000000000003": "bob+tg",
  "1000000000000000004": ["alice", "discord", "onebot", "webhook", "telegram", "alice"],
  "1000000000000000005": "carol",
  "1000000000000000006": 7,
  "1000000000000000007": "c+d",
  " 1000000000000000008 ": "TG",
  "1000000000000000009": [],
});
const routing = parseRoutingFiles(pushMap, barkMap);
const route = (id: string, fallback = "telegram") =>
  routeFor(routing, id, fallback).map((t) => `${t.channel}:${t.target}${t.problem ? "!" : ""}`);

describe("routing", () => {
  test("each push_map form", () => {
    expect(route("7485938033569431560")).toEqual(["telegram:default"]);
    expect(route("1000000000000000001")).toEqual(["bark:alice"]);
    expect(route("1000000000000000002")).toEqual([]);
    expect(route("1000000000000000003")).toEqual(["bark:bob", "telegram:default"]);
    expect(route("1000000000000000004")).toEqual([
      "bark:alice",
      "discord:default",
      "onebot:default",
      "webhook:default",
      "telegram:default",
    ]);
    expect(route("1000000000000000006")).toEqual(["bark:7"]);
    expect(route("1000000000000000007")).toEqual(["bark:c+d"]);
    expect(route("1000000000000000008")).toEqual(["telegram:default"]);
    expect(route("1000000000000000009")).toEqual([]);
  });

  test("an alias missing from bark_map is kept, with a problem for a skipped delivery", () => {
    const [target] = routeFor(routing, "1000000000000000005", "telegram");
    expect(target).toEqual({ channel: "bark", target: "carol", problem: 'Bark alias "carol" is not in bark_map.json' });
  });

  test("unknown players take the default route, in the same grammar", () => {
    expect(route("42")).toEqual(["telegram:default"]);
    expect(route("42", "alice+tg")).toEqual(["bark:alice", "telegram:default"]);
    expect(route("42", "none")).toEqual([]);
    expect(route("42", "discord+webhook+discord")).toEqual(["discord:default", "webhook:default"]);
  });

  test("routeFor returns copies the caller may change", () => {
    routeFor(routing, "1000000000000000001", "telegram")[0]!.target = "changed";
    expect(route("1000000000000000001")).toEqual(["bark:alice"]);
  });

  test("absent files: everyone on the default route, no Bark keys", () => {
    const empty = parseRoutingFiles(null, null);
    expect(empty.barkKeys).toEqual({});
    expect(routeFor(empty, "1", "telegram")).toEqual([{ channel: "telegram", target: "default" }]);
    expect(parseRoute("alice", {})[0]?.problem).toContain("alice");
  });

  test("bad JSON and wrong shapes name the file", () => {
    const names = { pushMap: "config/push_map.json", barkMap: "config/bark_map.json" };
    expect(() => parseRoutingFiles("{oops", null, names)).toThrow(/^config\/push_map\.json: not valid JSON/);
    expect(() => parseRoutingFiles(null, "[1,2]", names)).toThrow("config/bark_map.json: must be a JSON object");
    expect(() => parseRoutingFiles(null, '{"a": 5}', names)).toThrow('config/bark_map.json: alias "a"');
    expect(() => parseRoutingFiles('{"1": {"x": 1}}', null, names)).toThrow('config/push_map.json: player "1"');
    expect(() => parseRoutingFiles('{"1": ["tg", null]}', null)).toThrow(/^push_map\.json: player "1" has a route of type null/);
  });

  test("validateRouting warns about unconfigured channels, unknown aliases and shadowed aliases", () => {
    const configured = new Set<Channel>(["telegram", "bark"]);
    const warnings = validateRouting(routing, configured, "webhook");
    expect(warnings).toContain('1000000000000000005: Bark alias "carol" is not in bark_map.json');
    expect(warnings).toContain("routes to discord for 1000000000000000004, but discord is not configured");
    expect(warnings).toContain(
      "routes to webhook for 1000000000000000004, (default route), but webhook is not configured; NOTIFY_DEFAULT sets the default route (configured: telegram, bark)",
    );
    expect(warnings.some((w) => w.includes("telegram is not configured"))).toBe(false);
    const shadow = parseRoutingFiles(null, JSON.stringify({ tg: "k" }));
    expect(validateRouting(shadow, configured)).toEqual([
      'bark_map.json: alias "tg" is also a channel word and can never be routed to',
    ]);
    expect(validateRouting(parseRoutingFiles('{"1":"telegram"}', null), configured)).toEqual([]);
  });

  test("with no channel configured (a first start), routes to channels are not warned about: pushes are simply off", () => {
    expect(validateRouting(parseRoutingFiles(null, null), new Set(), "telegram")).toEqual([]);
    expect(validateRouting(routing, new Set(), "telegram").some((w) => w.includes("is not configured"))).toBe(false);
  });
});
