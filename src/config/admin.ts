/** The owner group: who may open the status page and /metrics. */
import { ConfigError, text, type Env } from "./parse.ts";

export interface AdminConfig {
  /** Bearer token, HTTP Basic password or login-form password; null = loopback clients only. */
  token: string | null;
}

const MIN_TOKEN_LENGTH = 16;

export function adminConfig(env: Env): AdminConfig {
  const token = text(env, "ADMIN_TOKEN");
  if (token !== null && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError((m) => m.tokenLength("ADMIN_TOKEN", MIN_TOKEN_LENGTH));
  }
  return { token };
}
