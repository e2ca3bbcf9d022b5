/**
 * The owner's language outside the pages (the start log, the CLI and its help): OWNER_LOCALE, else the shell's
 * locale as POSIX orders it (LC_ALL, then LC_MESSAGES, then LANG: `zh_CN.UTF-8`), else English.
 */
import { localeOf, type Locale } from "../i18n/locales.ts";
import { localeSetting } from "./maps.ts";
import { text, type Env } from "./parse.ts";

/** `zh_TW.UTF-8`, `ja_JP.eucJP@euro` → the language part (`zh_TW`); `C`, `POSIX` and others → null. */
function posixLocale(value: string): Locale | null {
  return localeOf(value.split(/[.@]/)[0] ?? "");
}

/** Validates OWNER_LOCALE (ConfigError on a bad value): loadConfig calls it; the CLI's help reads `ownerLocaleOf`. */
export function ownerLocaleSetting(env: Env): Locale {
  return localeSetting(env, "OWNER_LOCALE") ?? shellLocale(env);
}

function shellLocale(env: Env): Locale {
  // The first one set decides, even `C`: that is how the shell's own programs read them.
  const set = ["LC_ALL", "LC_MESSAGES", "LANG"].map((name) => text(env, name)).find((value) => value !== null);
  return set ? (posixLocale(set) ?? "en") : "en";
}

/** Never throws: a bad OWNER_LOCALE reads as the shell's locale (loadConfig reports it). */
export function ownerLocaleOf(env: Env = process.env): Locale {
  try {
    return ownerLocaleSetting(env);
  } catch {
    return shellLocale(env);
  }
}
