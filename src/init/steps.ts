/** The wizard's questions but the channel's (channel.ts): the language, the game's keys, the address phones reach. */
import { networkInterfaces } from "node:os";
import { DEFAULT_PORT } from "../config/index.ts";
import { baseUrl, ConfigError, reasonIn } from "../config/parse.ts";
import { unreachableBase } from "../config/public-base.ts";
import { LOCALE_NAMES, LOCALES, type Locale } from "../i18n/locales.ts";
import { initMessages } from "../i18n/owner/index.ts";
import { parseAesIv, parseAesKey } from "../save/keys.ts";
import type { Prompter } from "./prompts.ts";

/** Offered first: `shell`, the owner's locale (OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG: zh_CN.UTF-8 → 简体中文, C.UTF-8 → English). */
export async function askLanguage(p: Prompter, shell: Locale): Promise<Locale> {
  // A shell saying nothing of its language (C.UTF-8, common on servers) falls to English: the question is then asked
  // in every language, so a reader of any of them knows what to pick before anything else is in theirs.
  const question = shell === "en" ? LOCALES.map((each) => initMessages(each).language).join("\n") : p.m.language;
  const locale = await p.choose(
    question,
    LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] })),
    LOCALES.indexOf(shell) + 1,
  );
  p.m = initMessages(locale);
  return locale;
}

/**
 * The key and IV, checked by the parser the service uses (16 characters, hex: or base64:), written as hex: so that no
 * character of theirs needs quoting in .env. Never printed back.
 */
export async function askKeys(p: Prompter, locale: Locale): Promise<{ AES_KEY: string; AES_IV: string }> {
  p.say(p.m.keysFrom);
  const hex = (bytes: Uint8Array) => `hex:${Buffer.from(bytes).toString("hex")}`;
  const key = await p.askValid(p.m.aesKey, (answer) => parseAesKey(answer, "AES_KEY"), reasonIn(locale), true);
  p.say(`  ✓ ${p.m.keyTaken(key.length)}`);
  const iv = await p.askValid(p.m.aesIv, (answer) => parseAesIv(answer, "AES_IV"), reasonIn(locale), true);
  p.say(`  ✓ ${p.m.keyTaken(iv.length)}`);
  return { AES_KEY: hex(key), AES_IV: hex(iv) };
}

/** This machine's IPv4 addresses a phone may reach (loopback left out), private networks first. */
export function lanBaseUrls(): string[] {
  const urls = Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === "IPv4" && !address.internal)
    .map((address) => `http://${address.address}:${DEFAULT_PORT}`);
  const privateFirst = (url: string) => (unreachableBase(url) === "private" ? 0 : 1);
  return [...new Set(urls)].sort((a, b) => privateFirst(a) - privateFirst(b));
}

/** PUBLIC_BASE_URL: one of this machine's addresses, one typed (the config's own check), or none (null). */
export async function askPublicBase(p: Prompter, locale: Locale): Promise<string | null> {
  const offered = lanBaseUrls();
  const choice = await p.choose<string | null | "type">(p.m.publicBase, [
    ...offered.map((url) => ({ value: url, label: unreachableBase(url) === "private" ? `${url}  (${p.m.localNetwork})` : url })),
    { value: "type", label: p.m.typeAnother },
    { value: null, label: p.m.noAddress },
  ]);
  if (choice !== "type") return choice;
  return p.askValid(p.m.typedUrl, requiredBaseUrl, reasonIn(locale));
}

/** PUBLIC_BASE_URL as the config reads it; empty is refused in the config's own words. */
function requiredBaseUrl(answer: string): string {
  const url = baseUrl({ PUBLIC_BASE_URL: answer }, "PUBLIC_BASE_URL");
  if (url === null) throw new ConfigError((m) => m.notUrl("PUBLIC_BASE_URL", null));
  return url;
}
