/** The owner CLI's help, in the owner's language: each command as it is typed, then what it does. */
import type { CliMessages } from "./i18n/owner/index.ts";
import { JOB_STATES } from "./store/model/jobs.ts";

const INDENT = 6;

/** `mysekai-ingest --help`, the one-file build's own help: each form as typed, then what it does. */
export function binaryUsage(c: CliMessages, version: string): string {
  const b = c.binary;
  const rows: [string, string][] = [
    ["mysekai-ingest", b.serve],
    ["mysekai-ingest init", b.init],
    ["mysekai-ingest cli <command>", b.cli],
    ["mysekai-ingest demo [dataDir]", b.demo],
    ["mysekai-ingest demo --to <url>", b.demoTo],
    ["mysekai-ingest --help | --version", ""],
  ];
  const lines = rows.map(([syntax, what]) => `  ${syntax}${what === "" ? "" : `\n${" ".repeat(INDENT)}${what}`}`);
  return `mysekai-ingest ${version}: ${b.title}\n\n${c.usage}:\n${lines.join("\n")}`;
}

export function cliUsage(c: CliMessages): string {
  const h = c.help;
  const rows: [string, string | null][] = [
    ["jobs [--state S]", h.jobs(JOB_STATES.join(", "))],
    ["retry <saveId> | --failed", h.retry],
    ["reprocess <saveId> [--notify]", h.reprocess],
    ["inspect <file.bin>", h.inspect],
    ["gc", h.gc],
    ["setup rotate", h.setupRotate],
    ["players add <playerId> [--name N] [--route R]", h.playersAdd],
    ["players list", h.playersList],
    ["players unlock <playerId>", h.playersUnlock],
    ["sessions end", h.sessionsEnd],
    ["api-tokens add <name> [--players <id,id,…>]", h.apiTokensAdd],
    ["api-tokens list | revoke <name>", null],
    ["players public <playerId> on|off", h.playersPublic],
    ["data-webhooks add <url> [--payload raw|json-zstd] [--bearer <secret>] [--check-url <url>]", h.dataWebhooksAdd],
    ["data-webhooks list | remove <id>", null],
    ["watch add|remove <playerId|*> <resource…>", h.watchAdd],
    ["watch list [<playerId|*>]", null],
    ["watch nudge <playerId> on [hours] | off", h.watchNudge],
    ["catalogue update [--fetch] <region>=<folder|url>…", h.catalogueUpdate],
    ["catalogue show", h.catalogueShow],
  ];
  // Each command as the owner types it, its description on the next line: commands stay copyable whole.
  const lines = rows.map(([syntax, what]) => `  npm run cli -- ${syntax}${what === null ? "" : `\n${" ".repeat(INDENT)}${what}`}`);
  return `${c.usage} (${c.oneFileBuild}: mysekai-ingest cli <command>):\n${lines.join("\n")}`;
}
