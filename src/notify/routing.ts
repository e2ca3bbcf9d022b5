/**
 * Per-player routing, compatible with MySekaiMapper's files:
 *   push_map.json: { "<playerId>": route }   bark_map.json: { "<alias>": "<Bark device key>" }
 * A route is "telegram" (or "tg"), "none", a Bark alias, "discord", "onebot", "webhook", several of
 * those joined by "+" ("alias+tg"), or a list of such strings. Channel words are case-insensitive and
 * win over a Bark alias of the same name (validateRouting warns about such aliases).
 * A route may also be `{ "route": "alias+tg", "mode": "watched" }` (alone or in the list): its push mode,
 * "always" (every refresh, the default), "watched" (only a refresh holding a watched resource) or "off".
 */

import { ConfigError } from "../config/parse.ts";
import { ownerEn, type OwnerMessages } from "../i18n/owner/en.ts";

export const CHANNELS = ["telegram", "bark", "discord", "onebot", "webhook"] as const;
export type Channel = (typeof CHANNELS)[number];

/** When a route pushes: every refresh, only one holding a watched resource (src/watch/), or never. */
export const ROUTE_MODES = ["always", "watched", "off"] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

export interface ChannelTarget {
  channel: Channel;
  /** "default" for single-destination channels, the Bark alias for bark. */
  target: string;
  /** Set when the target cannot be delivered to (unknown Bark alias): record a skipped delivery. */
  problem?: string;
  /** Absent: "always". */
  mode?: Exclude<RouteMode, "always">;
}

export interface Routing {
  /** Player id → targets, already resolved against bark_map.json. */
  players: Map<string, ChannelTarget[]>;
  /** Bark alias → device key. */
  barkKeys: Record<string, string>;
}

const KEYWORDS: Record<string, Channel | "none"> = {
  telegram: "telegram",
  tg: "telegram",
  discord: "discord",
  onebot: "onebot",
  webhook: "webhook",
  none: "none",
};

function targetsForWord(word: string, barkKeys: Record<string, string>): ChannelTarget[] {
  const keyword = KEYWORDS[word.toLowerCase()];
  if (keyword === "none") return [];
  if (keyword !== undefined) return [{ channel: keyword, target: "default" }];
  if (Object.hasOwn(barkKeys, word)) return [{ channel: "bark", target: word }];
  return [{ channel: "bark", target: word, problem: `Bark alias "${word}" is not in bark_map.json` }];
}

const targetKey = (t: ChannelTarget) => `${t.channel}\u0000${t.target}`;

function dedupe(targets: ChannelTarget[]): ChannelTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = targetKey(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Parses one route string ("telegram", "alias+tg", "none" ...) into deduplicated targets. */
export function parseRoute(spec: string, barkKeys: Record<string, string>): ChannelTarget[] {
  const whole = spec.trim();
  if (whole === "") return [];
  // An alias that itself contains "+" is honoured before splitting.
  if (Object.hasOwn(barkKeys, whole) && KEYWORDS[whole.toLowerCase()] === undefined) {
    return [{ channel: "bark", target: whole }];
  }
  const parts = whole.split("+").map((p) => p.trim()).filter((p) => p !== "");
  return dedupe(parts.flatMap((part) => targetsForWord(part, barkKeys)));
}

function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the error, which in bark_map.json is a device key.
    throw new ConfigError((m) => m.notJson(file));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError((m) => m.notObject(file));
  }
  return value as Record<string, unknown>;
}

function routeValueToSpecs(value: unknown, file: string, playerId: string): { spec: string; mode: RouteMode }[] {
  const one = (v: unknown): { spec: string; mode: RouteMode } => {
    if (typeof v === "string") return { spec: v, mode: "always" };
    // Some hand-written files use a bare number as an alias; treat it as its text.
    if (typeof v === "number" && Number.isFinite(v)) return { spec: String(v), mode: "always" };
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const { route, mode = "always" } = v as { route?: unknown; mode?: unknown };
      if (!(ROUTE_MODES as readonly unknown[]).includes(mode)) throw new ConfigError((m) => m.routeMode(file, playerId, JSON.stringify(mode), ROUTE_MODES.join(", ")));
      if (typeof route !== "string") throw new ConfigError((m) => m.routeObject(file, playerId));
      return { spec: route, mode: mode as RouteMode };
    }
    throw new ConfigError((m) => m.routeType(file, playerId, v === null ? "null" : typeof v));
  };
  return Array.isArray(value) ? value.map(one) : [one(value)];
}

const withMode = (targets: ChannelTarget[], mode: RouteMode): ChannelTarget[] => (mode === "always" ? targets : targets.map((t) => ({ ...t, mode })));

export interface RoutingFileNames {
  pushMap: string;
  barkMap: string;
}

/** Parses both files (null = file absent). Throws a ConfigError naming the file on bad JSON or shapes. */
export function parseRoutingFiles(
  pushMapJson: string | null,
  barkMapJson: string | null,
  names: RoutingFileNames = { pushMap: "push_map.json", barkMap: "bark_map.json" },
): Routing {
  const barkKeys: Record<string, string> = {};
  if (barkMapJson !== null) {
    for (const [alias, key] of Object.entries(parseJsonObject(barkMapJson, names.barkMap))) {
      if (typeof key !== "string" || key.trim() === "") {
        throw new ConfigError((m) => m.barkKey(names.barkMap, alias));
      }
      barkKeys[alias] = key.trim();
    }
  }
  const players = new Map<string, ChannelTarget[]>();
  if (pushMapJson !== null) {
    for (const [rawId, value] of Object.entries(parseJsonObject(pushMapJson, names.pushMap))) {
      const playerId = rawId.trim();
      const specs = routeValueToSpecs(value, names.pushMap, playerId);
      players.set(playerId, dedupe(specs.flatMap(({ spec, mode }) => withMode(parseRoute(spec, barkKeys), mode))));
    }
  }
  return { players, barkKeys };
}

/** Targets for one player: its push_map.json entry, else `defaultRoute` (NOTIFY_DEFAULT grammar). */
export function routeFor(routing: Routing, playerId: string, defaultRoute: string): ChannelTarget[] {
  const listed = routing.players.get(playerId);
  return (listed ?? parseRoute(defaultRoute, routing.barkKeys)).map((t) => ({ ...t }));
}

/**
 * Whether `playerId`'s pushes go only where nobody else's do: listed in push_map.json, every target one person's
 * by nature (`isPrivate`: a Bark device, a private chat; never a group, a Discord channel or a webhook), and none
 * of them in another player's route or the default route (which anyone unlisted gets). Only then may a push carry
 * what is the player's alone, such as their personal link.
 */
export function routeIsOwn(routing: Routing, playerId: string, defaultRoute: string, isPrivate: (target: ChannelTarget) => boolean): boolean {
  const own = routing.players.get(playerId);
  if (own === undefined || !own.every(isPrivate)) return false;
  const shared = new Set(parseRoute(defaultRoute, routing.barkKeys).map(targetKey));
  for (const [other, targets] of routing.players) if (other !== playerId) for (const t of targets) shared.add(targetKey(t));
  return own.every((t) => !shared.has(targetKey(t)));
}

/**
 * Start-up warnings, in the owner's language: routes to channels that are not configured, unknown aliases, shadowed
 * aliases. With no channel at all (a first start) the routes are not wrong, there is nothing to push to yet: the
 * start line says pushes are off instead.
 */
export function validateRouting(routing: Routing, configured: Set<Channel>, defaultRoute?: string, m: OwnerMessages = ownerEn): string[] {
  const warnings: string[] = [];
  const byChannel = new Map<Channel, string[]>();
  const sources: [string, ChannelTarget[]][] = [...routing.players];
  if (defaultRoute !== undefined) sources.push([m.defaultRouteName, parseRoute(defaultRoute, routing.barkKeys)]);
  for (const [who, targets] of sources) {
    for (const t of targets) {
      // The one problem a target has: an alias bark_map.json does not name.
      if (t.problem !== undefined) warnings.push(`${who}: ${m.unknownAlias(t.target)}`);
      if (!configured.has(t.channel)) byChannel.set(t.channel, [...(byChannel.get(t.channel) ?? []), who]);
    }
  }
  for (const [channel, who] of configured.size === 0 ? [] : byChannel) {
    const shown = who.slice(0, 5).join(", ") + (who.length > 5 ? `, … ${m.inAll(who.length)}` : "");
    // The default route is NOTIFY_DEFAULT's: say so, since a newcomer never wrote that route.
    const hint = who.includes(m.defaultRouteName) ? m.defaultRouteHint([...configured].join(", ")) : "";
    warnings.push(m.routesToUnconfigured(channel, shown) + hint);
  }
  for (const alias of Object.keys(routing.barkKeys)) {
    if (KEYWORDS[alias.toLowerCase()] !== undefined) warnings.push(m.aliasShadowed(alias));
  }
  return warnings;
}
