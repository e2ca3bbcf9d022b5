/** Start-up wiring of the notify module: the routing files from CONFIG_DIR, the default route, and what to say at start. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifyConfig } from "../config/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { ownerMessages, type OwnerMessages } from "../i18n/owner/index.ts";
import { configuredChannels } from "./channels.ts";
import { CHANNELS, parseRoute, parseRoutingFiles, validateRouting, type Channel, type ChannelTarget, type Routing } from "./routing.ts";

export interface NotifySetup {
  routing: Routing;
  /** Route of players not in push_map.json: NOTIFY_DEFAULT, else every channel configured (defaultRouteOf), else telegram. */
  defaultRoute: string;
  /** In the owner's language. */
  warnings: string[];
  /** Where pushes go (or that they are off), said once at start in the owner's language; names no secret. */
  summary: string;
  /** No channel is configured: nothing is pushed (said once at start, not warned per route). */
  pushesOff: boolean;
}

function readOptional(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/**
 * A configuration needs no NOTIFY_DEFAULT: players go to every channel configured, never to one that is not. Bark
 * devices are people's phones: the one device joins, several do not (each is pushed only the players push_map.json
 * routes to it), nor does a device push_map.json already routes players to (a predecessor's file: its Bark was per
 * player and its default Telegram, which stays so).
 */
function defaultRouteOf(config: NotifyConfig, configured: Set<Channel>, routing: Routing, m: OwnerMessages): { route: string; why: string } {
  if (config.defaultRouteSet) return { route: config.defaultRoute, why: m.whyNotifyDefault };
  if (configured.size === 0) return { route: config.defaultRoute, why: m.whyFallback };
  const aliases = Object.keys(routing.barkKeys);
  const barkPerPlayer = [...routing.players.values()].some((targets) => targets.some((t) => t.channel === "bark"));
  const words = CHANNELS.filter((channel) => channel !== "bark" && configured.has(channel)) as string[];
  const barkJoins = configured.has("bark") && aliases.length === 1 && !barkPerPlayer;
  if (barkJoins) words.push(aliases[0]!);
  const leftOut = configured.has("bark") && !barkJoins ? m.barkLeftOut : null;
  if (words.length === 0) return { route: "none", why: leftOut! };
  const why = words.length > 1 ? m.whyEveryChannel : barkJoins ? m.whyOneBark : m.whyOneChannel;
  return { route: words.join("+"), why: leftOut === null ? why : `${why}; ${leftOut}` };
}

/** Where a target delivers, without a secret: a URL's host, a Bark alias, a OneBot chat. */
function destination(target: ChannelTarget, config: NotifyConfig, configured: Set<Channel>, m: OwnerMessages): string {
  if (!configured.has(target.channel)) return m.notConfigured(target.channel);
  const host = (url: string) => new URL(url).host;
  switch (target.channel) {
    case "bark":
      return `bark ${target.target}`;
    case "onebot":
      return m.at(`onebot ${config.onebot!.target}`, host(config.onebot!.url));
    case "webhook":
      return m.at("webhook", host(config.webhook!.url));
    default:
      return target.channel;
  }
}

function summaryOf(config: NotifyConfig, routing: Routing, route: { route: string; why: string }, configured: Set<Channel>, m: OwnerMessages): string {
  if (configured.size === 0) return m.pushesOff;
  const targets = parseRoute(route.route, routing.barkKeys);
  const everyone =
    targets.length === 0 ? m.pushesToNoOne(route.why) : m.pushesTo(targets.map((target) => destination(target, config, configured, m)).join(" + "), route.why);
  const listed = routing.players.size;
  return listed === 0 ? everyone : `${everyone}; ${m.pushMapRoutes(listed)}`;
}

/** Throws an Error naming the file when a routing file is not valid. `locale`: the owner's (config.ownerLocale). */
export function loadNotifySetup(config: NotifyConfig, configDir: string, locale: Locale = "en"): NotifySetup {
  const m = ownerMessages(locale);
  const pushMap = join(configDir, "push_map.json");
  const barkMap = join(configDir, "bark_map.json");
  const routing = parseRoutingFiles(readOptional(pushMap), readOptional(barkMap), { pushMap, barkMap });
  const configured = configuredChannels(config, routing.barkKeys);
  const defaultRoute = defaultRouteOf(config, configured, routing, m);
  return {
    routing,
    defaultRoute: defaultRoute.route,
    warnings: validateRouting(routing, configured, defaultRoute.route, m),
    summary: summaryOf(config, routing, defaultRoute, configured, m),
    pushesOff: configured.size === 0,
  };
}
