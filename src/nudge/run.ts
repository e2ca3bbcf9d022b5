/**
 * Missed-refresh nudges: for each player who opted in, once per refresh of their region (05:00 and 17:00 server
 * time) with no full save within their hours, one push on their route; a partial refresh nudges at once, with the
 * fix. The (player, refresh) row is claimed before the push, so a restart or a hub's other process never sends it
 * again (a push that fails is logged, not retried: a late nudge is worth less than a repeated one).
 */
import type { Config } from "../config/index.ts";
import { logInfo, logWarn } from "../log.ts";
import { configuredChannels, isOnePersonsChat, sendTo } from "../notify/channels.ts";
import { redact } from "../notify/errors.ts";
import type { PushMessage } from "../notify/message.ts";
import { routeFor, routeIsOwn, type Routing } from "../notify/routing.ts";
import type { SetupLinks } from "../store/ports/owner.ts";
import { refreshAtOrBefore } from "./refresh-times.ts";
import type { NudgeKind, NudgePlayer, NudgeStore } from "../store/ports/nudges.ts";
import { NUDGE_PUSH_TEXT } from "./strings.ts";
import { mapLocaleFor } from "../config/maps.ts";

export const DEFAULT_NUDGE_HOURS = 3;
const HOUR = 3_600_000;
/** A refresh missed longer ago than this is not nudged for (the service was down): the next one will be. */
const STALE_MS = 6 * HOUR;

export interface NudgeDeps {
  nudges: NudgeStore;
  links: Pick<SetupLinks, "linkedPlayer">;
  routing: Routing;
  config: Pick<Config, "notify" | "api" | "publicBaseUrl" | "maps">;
  /** Configured secrets, redacted from any error text logged. */
  secrets: string[];
}

async function regionOf(deps: NudgeDeps, playerId: string) {
  return (await deps.nudges.latestRegion(playerId)) ?? deps.config.api.defaultRegion;
}

/** Checks every opted-in player at `now`; how many nudges this call sent. */
export async function runMissedNudges(deps: NudgeDeps, now: number): Promise<number> {
  let sent = 0;
  for (const player of await deps.nudges.nudgePlayers()) {
    const wait = player.hours * HOUR;
    const refreshAt = refreshAtOrBefore(await regionOf(deps, player.playerId), now - wait);
    if (refreshAt < player.since || now - (refreshAt + wait) > STALE_MS) continue;
    if (await deps.nudges.fullSaveSince(player.playerId, refreshAt)) continue;
    if (await nudge(deps, player, refreshAt, "missed", now)) sent += 1;
  }
  return sent;
}

/** A partial refresh of an opted-in player: the nudge of its refresh, at once. */
export async function nudgePartial(deps: NudgeDeps, playerId: string, receivedAt: number, now = Date.now()): Promise<boolean> {
  // A reprocessed old partial save is no refresh to nudge about now.
  if (now - receivedAt > STALE_MS) return false;
  const player = await deps.nudges.nudgePlayer(playerId);
  if (player === null) return false;
  return nudge(deps, player, refreshAtOrBefore(await regionOf(deps, playerId), receivedAt), "partial", now);
}

async function nudge(deps: NudgeDeps, player: NudgePlayer, refreshAt: number, kind: NudgeKind, now: number): Promise<boolean> {
  if (!(await deps.nudges.claim(player.playerId, refreshAt, kind, now))) return false;
  const link = await deps.links.linkedPlayer(player.playerId);
  const S = NUDGE_PUSH_TEXT[mapLocaleFor(deps.config.maps, await regionOf(deps, player.playerId))];
  const base = deps.config.publicBaseUrl;
  // The personal link opens the player's own settings and uploads as them: only on a route nobody else shares,
  // never a group's or the default route, where the player is told to ask the owner instead.
  const ownRoute = routeIsOwn(deps.routing, player.playerId, deps.config.notify.defaultRoute, (target) => isOnePersonsChat(target, deps.config.notify));
  const setup = !base ? null : link?.token && ownRoute ? S.setup(`${base}/p/${link.token}`) : S.askOwner(`${base}/setup`);
  const text = kind === "missed" ? S.missed(player.hours) : S.partial;
  const message: PushMessage = {
    playerId: player.playerId,
    saveId: 0,
    capturedAt: new Date(now),
    title: kind === "missed" ? S.missedTitle : S.partialTitle,
    summaryText: [text, setup].filter((line) => line !== null).join("\n"),
    summary: { nudge: kind, refreshAt: new Date(refreshAt).toISOString() },
    pageUrl: null,
    images: [],
  };
  const configured = configuredChannels(deps.config.notify, deps.routing.barkKeys);
  const targets = routeFor(deps.routing, player.playerId, deps.config.notify.defaultRoute).filter((t) => t.mode !== "off" && t.problem === undefined && configured.has(t.channel));
  for (const target of targets) {
    try {
      await sendTo(target, message, deps.config.notify, deps.routing.barkKeys);
      logInfo("NOTIFY", "nudge sent", { player: player.playerId, kind, channel: target.channel, refreshAt: new Date(refreshAt).toISOString() });
    } catch (error) {
      logWarn("NOTIFY", "nudge failed; not sent again", { player: player.playerId, kind, channel: target.channel, error: redact(String(error), deps.secrets).slice(0, 200) });
    }
  }
  return true;
}

const CHECK_EVERY_MS = 60_000;

/** The nudge loop of a service: every minute, each process alike (the claim makes one of them push). */
export function startNudges(deps: NudgeDeps): ReturnType<typeof setInterval> {
  return setInterval(() => {
    runMissedNudges(deps, Date.now()).catch((error) => logWarn("NOTIFY", "nudge check failed; the next one tries again", { error: redact(String(error), deps.secrets).slice(0, 200) }));
  }, CHECK_EVERY_MS);
}
