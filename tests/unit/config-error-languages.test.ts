/**
 * Every reason a setting stops the start, in each owner language: what it is passed (a setting's or file's name, the
 * value read, a limit) appears as written, and a fixed reason keeps the setting names the English one names.
 */
import { expect, test } from "bun:test";
import { LOCALES } from "../../src/i18n/locales.ts";
import { configMessages } from "../../src/i18n/owner/index.ts";
import { configEn } from "../../src/i18n/owner/config-en.ts";
import { ConfigError } from "../../src/config/parse.ts";
import { loadConfig } from "../../src/config/index.ts";

/** numberRange's second argument says integer or not: it is a word, not a value to echo. */
const WORDS: Record<string, number[]> = { numberRange: [1] };

test.each(LOCALES.filter((locale) => locale !== "en"))("%s: each reason carries the names and values it is given, as written", (locale) => {
  const m = configMessages(locale);
  for (const [key, english] of Object.entries(configEn)) {
    const translated = m[key as keyof typeof configEn];
    if (typeof english === "string") {
      const names = english.match(/[A-Z][A-Z0-9_]{3,}/g) ?? [];
      expect({ key, missing: names.filter((name) => !(translated as string).includes(name)) }).toEqual({ key, missing: [] });
      expect({ key, same: translated === english }).toEqual({ key, same: false });
      continue;
    }
    const args = Array.from({ length: english.length }, (_, i) => `ARG${i}_X`);
    const said = (translated as (...a: string[]) => string)(...args);
    const echoed = args.filter((_, i) => !(WORDS[key] ?? []).includes(i));
    expect({ key, missing: echoed.filter((arg) => !said.includes(arg)) }).toEqual({ key, missing: [] });
    expect({ key, same: said === (english as (...a: string[]) => string)(...args) }).toEqual({ key, same: false });
  }
});

test("a ConfigError's message is the English; in(locale) the same reason in that language", () => {
  let caught: unknown;
  try {
    loadConfig({ AES_KEY: "abcde", AES_IV: "0123456789abcdef" });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  const error = caught as ConfigError;
  expect(error.message).toBe("AES_KEY must be 16, 24 or 32 bytes, got 5");
  expect(error.in("en")).toBe(error.message);
  expect(error.in("zh-Hans")).toBe("AES_KEY 必须是 16、24 或 32 字节，现在是 5 字节");
  expect(error.in("ko")).toBe("AES_KEY은(는) 16, 24 또는 32바이트여야 합니다(현재 5바이트)");
});
