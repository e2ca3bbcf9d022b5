/** The English strings of the nudges and their page line, in one place for the i18n catalogue. */
export const NUDGE_STRINGS = {
  missedTitle: "MySekai: no refresh captured",
  missed: (hours: number) => `No full MySekai save arrived within ${hours} h of the last refresh. Is the capture still on (module enabled, certificate trusted)?`,
  partialTitle: "MySekai: partial refresh captured",
  partial: "The game sent a refresh without harvest maps. Fix: open MySekai again from the title screen.",
  setup: (url: string) => `Capture setup: ${url}`,
} as const;
