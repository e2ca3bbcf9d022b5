/**
 * The owner CLI's own words in English, and the shape of the other languages' (`CliMessages`): the help's line for
 * each command (the command's syntax stays as typed) and what the commands print.
 */
export const cliEn = {
  usage: "usage",
  oneFileBuild: "one-file build",
  help: {
    jobs: (states: string) => `list jobs (S: ${states})`,
    retry: "run failed jobs again from their failed stage, and resend failed deliveries",
    reprocess: "run every stage of a save again (pushes only with --notify)",
    inspect: "decrypt a save file and print its summary; writes nothing",
    gc: "remove expired uploads, stale temp folders and what the retention rule expires",
    setupRotate: "new setup token: every module and script URL made before answers 404",
    playersAdd: "a player's personal setup link, and the name pushes and maps show for them (again: a new link, the old one stops)",
    playersList: "players with a link, and their links",
    apiTokensAdd: "a token for bots and tools (Bearer) that reads every player, or only those; printed once",
    playersPublic: "whether anyone may read this player's latest save at /public/…",
    dataWebhooksAdd:
      "after each new save, a POST to the URL with {server}, {data_type} and {user_id} filled in (and Authorization: Bearer <secret>): empty, so a bot pulls the save, or carrying it (raw: the encrypted body as received; json-zstd: its JSON in zstd; header X-Haruki-Upload-Data-Format); with --check-url, only when a GET there ({server}, {user_id} filled in) answers 200 (404: not sent)",
    watchAdd: 'resources a player watches (* = every player), by name in any language or type:id; a push_map.json route with "mode": "watched" pushes only refreshes holding one',
    watchNudge: "a push when no full save arrived within hours (default 3) of a refresh of the player's region, and at once on a partial refresh",
  },
  configuration: (why: string) => `configuration: ${why}`,
  needSaveId: "a numeric save id is required",
  needPlayerId: "a numeric player id is required",
  nameTooLong: "--name is at most 64 characters",
  unknownState: (state: string) => `unknown state "${state}"`,
  noJobs: (state: string | null) => (state ? `no ${state} jobs` : "no jobs"),
  noLinkedPlayers: "no players with a link",
  link: (playerId: string, url: string, replaced: boolean) => `${replaced ? "new link (the old one stops working)" : "link"} for ${playerId}: ${url}`,
  named: (name: string) => `pushes and maps name this player ${name} from the next save on`,
  routeHint: (file: string, entry: string) => `pushes: add to ${file}: ${entry} and restart`,
  noKey: "no AES key configured: set AES_KEY and AES_IV (in the environment or .env) to decrypt a save",
  notASave: (kind: "invalid" | "unreadable" | "too_large", reason: string) => `${kind === "invalid" ? "not a save" : kind === "unreadable" ? "unreadable" : "refused"}: ${reason}`,
  decrypted: (key: string, sites: number | null) => `decrypted with ${key}; ${sites === null ? "partial refresh (no harvest maps)" : `${sites} sites`}`,
  siteLine: (id: number, name: string, resources: number, drops: number) => `  site ${id} ${name}: ${resources} resources, ${drops} drops`,
  retryWhich: "retry takes a save id or --failed (one of them)",
  noSuchSave: (id: string) => `save ${id} does not exist (npm run cli -- jobs lists saves and their jobs)`,
  requeued: (jobs: number, deliveries: number) =>
    `${jobs} failed job${jobs === 1 ? "" : "s"} and ${deliveries} failed deliver${deliveries === 1 ? "y" : "ies"} queued again`,
  cannotReprocess: (id: number) => `save ${id} has no job that can be reprocessed (unknown, or running now)`,
  reprocessed: (id: number, notify: boolean) => `save ${id} queued for generate (draw and archive) → notify${notify ? "" : " (no push)"}`,
  newSetupToken: (url: string) => `new setup token: install the modules again from ${url}`,
  unknownAction: (command: string, action: string, known: string) => `unknown ${command} action ${action} (one of: ${known})`,
  unexpectedArgument: (name: string, arg: string) => `${name}: unexpected argument ${arg}`,
  moreArguments: (name: string, n: number) => `${name}: ${n} more argument${n === 1 ? "" : "s"} needed`,
  unknownOption: (name: string, flag: string, takes: string | null) => `${name}: unknown option ${flag} (${takes === null ? "it takes none" : `it takes ${takes}`})`,
  takesNoValue: (name: string, flag: string) => `${name}: ${flag} takes no value`,
  needsValue: (name: string, flag: string, dash: boolean) => `${name}: ${flag} needs a value${dash ? ` (one that starts with "-" goes as ${flag}=<value>)` : ""}`,
  unknownCommand: (name: string) => `unknown command "${name}"`,
};

export type CliMessages = typeof cliEn;
