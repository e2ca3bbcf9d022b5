/** The owner's `watch` command: a player's (or every player's, `*`) watch rules, by resource name in any language or type:id. */
import { MAX_RULES } from "./store/model/watch.ts";
import { resolveResource, ruleName } from "./watch/resources.ts";
import { EVERY_PLAYER, type WatchStore } from "./store/ports/watch.ts";
import { DEFAULT_NUDGE_HOURS } from "./nudge/run.ts";
import type { NudgeStore } from "./store/ports/nudges.ts";
import { UsageError, type ParsedCommand } from "./cli-args.ts";
import { PLAYER_ID_SHAPE } from "./store/model/owner.ts";

function playerArg(value: string | undefined): string {
  if (value === EVERY_PLAYER || (value !== undefined && PLAYER_ID_SHAPE.test(value))) return value;
  throw new UsageError("a numeric player id or * is required");
}

export async function watchCommand(watch: WatchStore, nudges: NudgeStore, { name: command, positionals: [player, ...names] }: ParsedCommand): Promise<number> {
  if (command === "watch nudge") return nudgeCommand(nudges, player, names);
  if (command === "watch list") {
    const rules = await watch.list(player === undefined ? undefined : playerArg(player));
    if (rules.length === 0) console.log(player === undefined ? "no watch rules" : `no watch rules for ${player}`);
    for (const rule of rules) console.log(`${rule.playerId}\t${rule.resource}\t${ruleName(rule.resource, "en")}`);
    return 0;
  }
  const playerId = playerArg(player);
  const resolved = names.map(resolveResource);
  const wrong = resolved.flatMap((r) => (r.ok ? [] : [r.reason]));
  if (wrong.length > 0) {
    for (const reason of wrong) console.error(reason);
    return 1;
  }
  const keys = resolved.flatMap((r) => (r.ok ? [r.key] : []));
  const shown = keys.map((key) => `${ruleName(key, "en")} (${key})`).join(", ");
  if (command === "watch remove") {
    const removed = await watch.remove(playerId, keys);
    console.log(`${removed} rule(s) removed for ${playerId}: ${shown}`);
    return removed > 0 ? 0 : 1;
  }
  const added = await watch.add(playerId, keys);
  if (added === "too_many") {
    console.error(`${playerId} would watch more than ${MAX_RULES} resources; remove some first`);
    return 1;
  }
  console.log(`${playerId} watches ${shown}${added < keys.length ? ` (${keys.length - added} already watched)` : ""}`);
  return 0;
}

async function nudgeCommand(nudges: NudgeStore, player: string | undefined, [state, hoursText]: string[]): Promise<number> {
  if (player === undefined || !PLAYER_ID_SHAPE.test(player)) throw new UsageError("a numeric player id is required");
  if (state === "off") {
    await nudges.setNudge(player, null);
    console.log(`no nudges for ${player}`);
    return 0;
  }
  if (state !== "on") throw new UsageError("nudge: on [hours] or off");
  const hours = hoursText === undefined ? DEFAULT_NUDGE_HOURS : Number(hoursText);
  if (!Number.isInteger(hours) || hours < 1 || hours > 11) throw new UsageError("nudge hours: a whole number from 1 to 11 (refreshes are 12 h apart)");
  await nudges.setNudge(player, hours);
  console.log(`${player} is nudged when no full save arrives within ${hours} h of a refresh`);
  return 0;
}
