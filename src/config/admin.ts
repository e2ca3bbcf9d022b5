/** The owner group: who may open the status page and /metrics, and the key that seals players' links in the store. */
import { MIN_KEY_LENGTH } from "../link-key.ts";
import { ConfigError, text, type Env } from "./parse.ts";

export interface AdminConfig {
  /** Bearer token, HTTP Basic password or login-form password; null = loopback clients only. */
  token: string | null;
  /** LINK_KEY: seals link and setup tokens (src/link-key.ts); null = DATA_DIR/link.key, one process on SQLite only. */
  linkKey: string | null;
}

const MIN_TOKEN_LENGTH = 16;

/** `hub`: DATABASE_URL is set, and every process (the owner CLI's too) must open what any other sealed. */
export function adminConfig(env: Env, hub: boolean): AdminConfig {
  const token = text(env, "ADMIN_TOKEN");
  if (token !== null && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError((m) => m.tokenLength("ADMIN_TOKEN", MIN_TOKEN_LENGTH));
  }
  const linkKey = text(env, "LINK_KEY");
  if (linkKey !== null && linkKey.length < MIN_KEY_LENGTH) {
    throw new ConfigError((m) => m.tokenLength("LINK_KEY", MIN_KEY_LENGTH));
  }
  // Each process's own DATA_DIR/link.key would seal what no other process can open: /setup and players' links would work on one only.
  if (linkKey === null && hub) throw new ConfigError((m) => m.hubLinkKey(MIN_KEY_LENGTH));
  return { token, linkKey };
}
