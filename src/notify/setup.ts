/** Start-up wiring of the notify module: the routing files from CONFIG_DIR, the default route, and what to say at start. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifyConfig } from "../config/index.ts";
import { configuredChannels } from "./channels.ts";
import { parseRoute, parseRoutingFiles, PUSHES_OFF, validateRouting, type Channel, type ChannelTarget, type Routing } from "./routing.ts";

export interface NotifySetup {
  routing: Routing;
  /** Route of players not in push_map.json: NOTIFY_DEFAULT, else the one channel configured, else telegram. */
  defaultRoute: string;
  warnings: string[];
  /** Where pushes go (or that they are off), said once at start; names no secret. */
  summary: string;
  /** No channel is configured: nothing is pushed (said once at start, not warned per route). */
  pushesOff: boolean;
}

function readOptional(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** A first configuration needs no NOTIFY_DEFAULT: with one channel (or one Bark device), everyone is pushed there. */
function defaultRouteOf(config: NotifyConfig, configured: Set<Channel>, barkKeys: Record<string, string>): { route: string; why: string } {
  if (config.defaultRouteSet) return { route: config.defaultRoute, why: "NOTIFY_DEFAULT" };
  const fallback = { route: config.defaultRoute, why: "the default route; NOTIFY_DEFAULT sets another" };
  if (configured.size !== 1) return fallback;
  const [only] = configured as Iterable<Channel>;
  if (only !== "bark") return { route: only!, why: "the one channel configured" };
  const aliases = Object.keys(barkKeys);
  return aliases.length === 1 ? { route: aliases[0]!, why: "the one Bark device in bark_map.json" } : fallback;
}

/** Where a target delivers, without a secret: a URL's host, a Bark alias, a OneBot chat. */
function destination(target: ChannelTarget, config: NotifyConfig, configured: Set<Channel>): string {
  if (!configured.has(target.channel)) return `${target.channel} (not configured)`;
  const host = (url: string) => new URL(url).host;
  switch (target.channel) {
    case "bark":
      return `bark ${target.target}`;
    case "onebot":
      return `onebot ${config.onebot!.target} at ${host(config.onebot!.url)}`;
    case "webhook":
      return `webhook at ${host(config.webhook!.url)}`;
    default:
      return target.channel;
  }
}

function summaryOf(config: NotifyConfig, routing: Routing, route: { route: string; why: string }, configured: Set<Channel>): string {
  if (configured.size === 0) return PUSHES_OFF;
  const targets = parseRoute(route.route, routing.barkKeys);
  const everyone =
    targets.length === 0
      ? `pushes go to no one not in push_map.json (${route.why})`
      : `pushes go to ${targets.map((target) => destination(target, config, configured)).join(" + ")} for every player not in push_map.json (${route.why})`;
  const listed = routing.players.size;
  return listed === 0 ? everyone : `${everyone}; push_map.json routes ${listed} player${listed === 1 ? "" : "s"}`;
}

/** Throws an Error naming the file when a routing file is not valid. */
export function loadNotifySetup(config: NotifyConfig, configDir: string): NotifySetup {
  const pushMap = join(configDir, "push_map.json");
  const barkMap = join(configDir, "bark_map.json");
  const routing = parseRoutingFiles(readOptional(pushMap), readOptional(barkMap), { pushMap, barkMap });
  const configured = configuredChannels(config, routing.barkKeys);
  const defaultRoute = defaultRouteOf(config, configured, routing.barkKeys);
  return {
    routing,
    defaultRoute: defaultRoute.route,
    warnings: validateRouting(routing, configured, defaultRoute.route),
    summary: summaryOf(config, routing, defaultRoute, configured),
    pushesOff: configured.size === 0,
  };
}
