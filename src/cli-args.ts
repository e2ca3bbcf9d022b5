/**
 * The owner commands' arguments: each command (and action) with the options it takes and how many positional
 * arguments, in one table. An option, command or action not in it is an error that names it (node:util's
 * parseArgs, strict), never silently ignored.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { cliMessages } from "./i18n/owner/index.ts";

/** The owner's language (OWNER_LOCALE, LANG …): read when a message is made, as the CLI's. */
const said = () => cliMessages(ownerLocaleOf());

type Options = NonNullable<ParseArgsConfig["options"]>;
export interface CommandShape {
  options: Options;
  /** How many positional arguments: [fewest, most]. */
  positionals: [number, number];
}

export const text = { type: "string" } as const;
const flag = { type: "boolean" } as const;
export const shape = (positionals: [number, number], options: Options = {}): CommandShape => ({ options, positionals });

/** Adding an option to a command is one line here (and its use in the command). */
export const COMMANDS: Record<string, CommandShape> = {
  jobs: shape([0, 0], { state: text }),
  retry: shape([0, 1], { failed: flag }),
  reprocess: shape([1, 1], { notify: flag }),
  inspect: shape([1, 1]),
  gc: shape([0, 0]),
  "setup rotate": shape([0, 0]),
  "sessions end": shape([0, 0]),
  "players add": shape([1, 1], { name: text, route: text }),
  "players list": shape([0, 0]),
  "players public": shape([2, 2]),
  "players unlock": shape([1, 1]),
  "api-tokens add": shape([1, 1], { players: text }),
  "api-tokens list": shape([0, 0]),
  "api-tokens revoke": shape([1, 1]),
  "data-webhooks add": shape([1, 1], { bearer: text, payload: text, "check-url": text }),
  "data-webhooks list": shape([0, 0]),
  "data-webhooks remove": shape([1, 1]),
  // A player (or *) and up to 200 resources (the watch list's bound).
  "watch add": shape([2, 201]),
  "watch remove": shape([2, 201]),
  "watch list": shape([0, 1]),
  "watch nudge": shape([2, 3]),
  // Up to one source per server.
  "catalogue update": shape([0, 5], { fetch: flag }),
  "catalogue show": shape([0, 0]),
};

export class UsageError extends Error {}

export interface ParsedCommand {
  /** "jobs", "players add" … */
  name: string;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

const quoted = (value: string) => JSON.stringify(value.slice(0, 40));

/** Reads `args` (the command first) by the table; throws UsageError naming what it does not know. */
export function parseCommand(args: string[]): ParsedCommand {
  const [command = "", ...afterCommand] = args;
  const actions = Object.keys(COMMANDS).filter((name) => name.startsWith(`${command} `));
  const [name, rest] = actions.length === 0 ? [command, afterCommand] : [`${command} ${afterCommand[0] ?? ""}`, afterCommand.slice(1)];
  const shaped = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (shaped === null) {
    if (actions.length === 0) throw new UsageError(said().unknownCommand(command.slice(0, 40)));
    const known = actions.map((action) => action.slice(command.length + 1)).join(", ");
    throw new UsageError(said().unknownAction(command, quoted(afterCommand[0] ?? ""), known));
  }
  return parseShaped(name, shaped, rest);
}

/** Reads the arguments after command `name` by its shape; throws UsageError naming what it does not know. */
export function parseShaped(name: string, shaped: CommandShape, args: string[]): ParsedCommand {
  let parsed: { values: ParsedCommand["values"]; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: shaped.options, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError(argumentProblem(error as Error & { code?: string }, name, shaped.options));
  }
  const [fewest, most] = shaped.positionals;
  const count = parsed.positionals.length;
  if (count > most) throw new UsageError(said().unexpectedArgument(name, quoted(parsed.positionals[most]!)));
  if (count < fewest) throw new UsageError(said().moreArguments(name, fewest - count));
  return { name, ...parsed };
}

function argumentProblem(error: Error & { code?: string }, name: string, options: Options): string {
  const flagName = /'(-[^' ]+)/.exec(error.message)?.[1] ?? "an option";
  const takes = Object.keys(options).map((option) => `--${option}`);
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return said().unknownOption(name, flagName.slice(0, 40), takes.length === 0 ? null : takes.join(", "));
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const kind = (options[flagName.replace(/^-+/, "")] as { type?: string } | undefined)?.type;
    if (kind === "boolean") return said().takesNoValue(name, flagName);
    return said().needsValue(name, flagName, /ambiguous/.test(error.message));
  }
  return `${name}: ${error.message.split("\n")[0]}`;
}
