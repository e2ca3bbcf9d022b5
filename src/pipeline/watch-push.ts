/**
 * Route modes at push time (push_map.json's "mode"): an `off` route gets nothing, a `watched` route only a
 * refresh holding a resource the player watches, and then a message of its own: a first line naming the find,
 * its site and count, then the maps of those sites. The matches are recorded for the player's history.
 */
import type { SaveOutputs } from "../maps/save-outputs.ts";
import type { PushMessage } from "../notify/message.ts";
import { routeFor, type ChannelTarget } from "../notify/routing.ts";
import type { WatchMatch } from "../store/model/watch.ts";
import { matchText, watchMatches } from "../watch/match.ts";
import type { PipelineDeps } from "./stage.ts";
import type { Delivery } from "../store/model/deliveries.ts";

type SaveRef = { id: number; playerId: string };

/** The targets this refresh goes to after their modes; records what it matched of the player's watch rules. */
export async function targetsByMode(deps: PipelineDeps, save: SaveRef, outputs: SaveOutputs, targets: ChannelTarget[]): Promise<ChannelTarget[]> {
  const matches = watchMatches(outputs, await deps.watch.watchedBy(save.playerId));
  await deps.watch.recordMatches(save.id, save.playerId, matches);
  return targets.filter((target) => target.mode !== "off" && (target.mode !== "watched" || matches.length > 0));
}

export function watchedMessage(message: PushMessage, matches: WatchMatch[]): PushMessage {
  const [first, ...rest] = matches;
  if (first === undefined) return message;
  const sites = new Set(matches.map((m) => `site_${m.siteId}.png`));
  return {
    ...message,
    title: matchText(first),
    summaryText: rest.map((match) => matchText(match)).join("\n"),
    images: message.images.filter((image) => sites.has(image.name)),
  };
}

/** The message each delivery of this save gets: the watched one for a delivery to a `watched` route. */
export async function messageForDelivery(deps: PipelineDeps, save: SaveRef, message: PushMessage | null): Promise<(delivery: Delivery) => PushMessage | null> {
  if (message === null) return () => null;
  const watchedTargets = routeFor(deps.routing, save.playerId, deps.config.notify.defaultRoute).filter((t) => t.mode === "watched");
  if (watchedTargets.length === 0) return () => message;
  const matches = (await deps.watch.matchesOf([save.id])).get(save.id) ?? [];
  const watched = watchedMessage(message, matches);
  return (delivery) => (watchedTargets.some((t) => t.channel === delivery.channel && t.target === delivery.target) ? watched : message);
}
