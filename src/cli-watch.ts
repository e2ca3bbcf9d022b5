/** The owner's `watch` command: a player's (or every player's, `*`) watch rules, by resource name in any language or type:id. */
import { MAX_RULES } from "./store/model/watch.ts";
import { resolveResource, ruleName, type UnresolvedResource } from "./watch/resources.ts";
import { EVERY_PLAYER, type WatchStore } from "./store/ports/watch.ts";
import { DEFAULT_NUDGE_HOURS } from "./nudge/run.ts";
import type { NudgeStore } from "./store/ports/nudges.ts";
import { UsageError, type ParsedCommand } from "./cli-args.ts";
import { PLAYER_ID_SHAPE } from "./store/model/owner.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { cliMessages } from "./i18n/owner/index.ts";

/** The owner's language: the messages, and the resource names shown (a name in any language is understood). */
const locale = ownerLocaleOf();
const c = cliMessages(locale);

function playerArg(value: string | undefined): string {
  if (value === EVERY_PLAYER || (value !== undefined && PLAYER_ID_SHAPE.test(value))) return value;
  throw new UsageError(c.needPlayerOrAll);
}

export async function watchCommand(watch: WatchStore, nudges: NudgeStore, { name: command, positionals: [player, ...names] }: ParsedCommand): Promise<number> {
  if (command === "watch nudge") return nudgeCommand(nudges, player, names);
  if (command === "watch list") {
    const rules = await watch.list(player === undefined ? undefined : playerArg(player));
    if (rules.length === 0) console.log(c.noRules(player ?? null));
    for (const rule of rules) console.log(`${rule.playerId}\t${rule.resource}\t${ruleName(rule.resource, locale)}`);
    return 0;
  }
  const playerId = playerArg(player);
  const resolved = names.map(resolveResource);
  const wrong = resolved.flatMap((r) => (r.ok ? [] : [unresolved(r.problem)]));
  if (wrong.length > 0) {
    for (const reason of wrong) console.error(reason);
    return 1;
  }
  const keys = resolved.flatMap((r) => (r.ok ? [r.key] : []));
  const shown = keys.map((key) => `${ruleName(key, locale)} (${key})`).join(", ");
  if (command === "watch remove") {
    const removed = await watch.remove(playerId, keys);
    console.log(c.rulesRemoved(removed, playerId, shown));
    return removed > 0 ? 0 : 1;
  }
  const added = await watch.add(playerId, keys);
  if (added === "too_many") {
    console.error(c.tooManyRules(playerId, MAX_RULES));
    return 1;
  }
  console.log(c.watches(playerId, shown, keys.length - added));
  return 0;
}

async function nudgeCommand(nudges: NudgeStore, player: string | undefined, [state, hoursText]: string[]): Promise<number> {
  if (player === undefined || !PLAYER_ID_SHAPE.test(player)) throw new UsageError(c.needPlayerId);
  if (state === "off") {
    await nudges.setNudge(player, null);
    console.log(c.nudgeOff(player));
    return 0;
  }
  if (state !== "on") throw new UsageError(c.nudgeUsage);
  const hours = hoursText === undefined ? DEFAULT_NUDGE_HOURS : Number(hoursText);
  if (!Number.isInteger(hours) || hours < 1 || hours > 11) throw new UsageError(c.nudgeHours);
  await nudges.setNudge(player, hours);
  console.log(c.nudgeOn(player, hours));
  return 0;
}

function unresolved(problem: UnresolvedResource): string {
  if (problem.kind === "ambiguous") return c.ambiguousResource(problem.text, problem.keys.join(", "));
  return problem.kind === "no_name" ? c.noResourceNamed(problem.text) : c.notInCatalogue(problem.text);
}
