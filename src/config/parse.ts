/** Reading one environment variable: a bad value stops the start with a ConfigError naming it. */
import type { Locale } from "../i18n/locales.ts";
import { configMessages, type ConfigMessages } from "../i18n/owner/index.ts";
import { KeyConfigError } from "../save/keys.ts";

/** A reason written once for every language: the setting's name passed in, as written. */
type ConfigProblem = (m: ConfigMessages) => string;

/** Its message is the English; `in(locale)` says the same in the owner's language (the start and the CLI print that). */
export class ConfigError extends Error {
  constructor(readonly problem: ConfigProblem) {
    super(problem(configMessages("en")));
  }

  in(locale: Locale): string {
    return this.problem(configMessages(locale));
  }
}

/** Why a start, a command or an answer was refused, in the owner's language: the service's own reason (a setting's, a key's), else the error's text. */
export const reasonIn =
  (locale: Locale) =>
  (error: unknown): string =>
    error instanceof ConfigError ? error.in(locale) : error instanceof KeyConfigError ? error.problem(configMessages(locale)) : error instanceof Error ? error.message : String(error);

export type Env = Record<string, string | undefined>;

export function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

export function number(env: Env, name: string, fallback: number, min: number, max: number, integer = true): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new ConfigError((m) => m.numberRange(name, integer, min, max, raw.slice(0, 40)));
  }
  return value;
}

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined || raw === null) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError((m) => m.flag(name, raw.slice(0, 40)));
}

export function httpUrl(env: Env, name: string, secret = false): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError((m) => m.notUrl(name, secret ? null : raw.slice(0, 80)));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError((m) => m.notHttp(name));
  return raw.replace(/\/+$/, "");
}

/** A base URL that paths are appended to: http(s), no query, fragment or credentials. */
export function baseUrl(env: Env, name: string): string | null {
  const url = httpUrl(env, name);
  if (url === null) return null;
  const parsed = new URL(url);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError((m) => m.notBase(name));
  }
  return url;
}

/** A token that travels in an HTTP header: printable ASCII without spaces. Never echoed. */
export function headerToken(env: Env, name: string): string | null {
  const token = text(env, name);
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) throw new ConfigError((m) => m.notHeaderToken(name));
  return token;
}
