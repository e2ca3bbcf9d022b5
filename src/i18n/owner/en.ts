/**
 * What the owner reads outside the pages, in English, and the shape of the other languages' catalogues (each
 * typed `OwnerMessages`): the start log's sentences (its `[PREFIX]` and `key=value` fields stay as they are, for
 * whoever greps them) and the CLI's. Setting names, channel names and commands are passed in or left as written.
 */
export const ownerEn = {
  // Where pushes go (src/notify/setup.ts)
  pushesTo: (where: string, why: string) => `pushes go to ${where} for every player not in push_map.json (${why})`,
  pushesToNoOne: (why: string) => `pushes go to no one not in push_map.json (${why})`,
  pushMapRoutes: (n: number) => `push_map.json routes ${n} player${n === 1 ? "" : "s"}`,
  pushesOff:
    "pushes are off: no push channel is configured (set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID, DISCORD_WEBHOOK_URL, ONEBOT_URL, WEBHOOK_URL, or Bark keys in bark_map.json); saves are still archived",
  whyNotifyDefault: "NOTIFY_DEFAULT",
  whyOneChannel: "the one channel configured",
  whyEveryChannel: "every channel configured; NOTIFY_DEFAULT sets another route",
  whyOneBark: "the one Bark device in bark_map.json",
  whyFallback: "the default route; NOTIFY_DEFAULT sets another",
  barkLeftOut: "Bark devices get only the players push_map.json routes to them",
  notConfigured: (channel: string) => `${channel} (not configured)`,
  at: (what: string, host: string) => `${what} at ${host}`,
  // Routing warnings (src/notify/routing.ts)
  defaultRouteName: "(default route)",
  unknownAlias: (alias: string) => `Bark alias "${alias}" is not in bark_map.json`,
  routesToUnconfigured: (channel: string, who: string) => `routes to ${channel} for ${who}, but ${channel} is not configured`,
  defaultRouteHint: (configured: string) => `; NOTIFY_DEFAULT sets the default route (configured: ${configured})`,
  aliasShadowed: (alias: string) => `bark_map.json: alias "${alias}" is also a channel word and can never be routed to`,
  inAll: (n: number) => `(${n} in all)`,
  // Start (src/main.ts, src/service.ts)
  listening: "listening",
  shuttingDown: "shutting down",
  stopped: "stopped",
  noKey: "no AES key configured (AES_KEY/AES_IV): saves are accepted and wait for keys",
  linkKeyChanged: "the setup token was sealed with another link key (LINK_KEY or DATA_DIR/link.key changed): installed modules keep working, but /setup shows its links only after a new setup token (npm run cli -- setup rotate)",
  sessionsEnded: "the owner's token or the link key is not the one the sessions were opened under (or this is the first start that checks): every owner session ended",
  clearTokensSealed: "sealed the clear link and setup tokens an older version stored (they keep working)",
  launchEnv: "started without its launch settings: set MIMALLOC_PURGE_DELAY=250 as npm start does (README, Configuration)",
  cannotStart: (why: string) => `cannot start: ${why}`,
  or: "or",
  endpointUpload: "upload",
  setupNeedsAdminToken: "set ADMIN_TOKEN to open it: without it /setup answers only this machine's loopback, where HOST does not listen",
  endpointSetup: "capture setup (owner)",
  endpointReport: "report",
  reportDisabled: "report: disabled (REPORT_ENABLED=0)",
  publicBaseUnreachable: (name: string, url: string, kind: "loopback" | "private") =>
    kind === "loopback"
      ? `${name} is ${url}, this machine itself: a phone cannot reach it, and Bark's images and links will not open. Set it to the address your phone reaches and restart`
      : `${name} is ${url}, an address of a private network: a phone reaches it only on that network, and Bark's images and links open only there`,
};

export type OwnerMessages = typeof ownerEn;
