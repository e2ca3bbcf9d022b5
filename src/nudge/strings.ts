/** The English strings of the nudges and their page line, in one place for the i18n catalogue. */
export const NUDGE_STRINGS = {
  missedTitle: "MySekai: no refresh captured",
  missed: (hours: number) => `No full MySekai save arrived within ${hours} h of the last refresh. Is the capture still on (module enabled, certificate trusted)?`,
  partialTitle: "MySekai: partial refresh captured",
  partial: "The game sent a refresh without harvest maps. Fix: open MySekai again from the title screen.",
  setup: (url: string) => `Capture setup: ${url}`,
  pageHeading: "Missed-refresh nudges",
  pageOn: (hours: number) => `On: when no full save arrives within ${hours} h of a refresh of your server (05:00 and 17:00 server time), you get one push saying so; a partial refresh gets one at once, with the fix.`,
  pageOff: "Off: turn on to get one push when a refresh of your server goes uncaptured (a certificate expired, a module turned off, a partial refresh).",
  turnOn: "Turn nudges on",
  turnOff: "Turn nudges off",
} as const;
