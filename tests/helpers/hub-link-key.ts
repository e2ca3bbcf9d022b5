/**
 * The LINK_KEY of every hub the tests start: hub mode refuses to start without one (src/config/admin.ts), and its
 * processes and the owner CLI share it, so a link one of them sealed shows on any other.
 */
export const HUB_LINK_KEY = "the tests' hub link key, the same on every process";

/** A hub's store settings: its DATABASE_URL and the key beside it. */
export const hubSettings = (databaseUrl: string) => ({ DATABASE_URL: databaseUrl, LINK_KEY: HUB_LINK_KEY });

/** What the owner CLI needs of a deployment's settings to act on the same store: a hub's DATABASE_URL and key, nothing on SQLite. */
export const hubSettingsOf = (settings: Record<string, string>): Record<string, string> => (settings.DATABASE_URL ? hubSettings(settings.DATABASE_URL) : {});
