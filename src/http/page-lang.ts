/**
 * The language and time zone of one page view. PAGE_LOCALE fixes the language; else the reader's own choice
 * (the switch on every page: `?lang=` sets a cookie that is remembered), else Accept-Language, else English.
 * Times tied to a save are shown in its region's zone (as its maps and push wrote them); other times in the
 * zone of the newest save's region (the owner's own, on a server of one player), else of the page's language.
 * MAP_TIMEZONE, when set, is the zone of every time.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Region } from "../capture/regions.ts";
import type { Config } from "../config/index.ts";
import { timeZoneFor } from "../config/maps.ts";
import { LOCALES, negotiateLocale, type Locale } from "../i18n/locales.ts";
import { MESSAGES, type Messages } from "../i18n/messages/index.ts";

export const LANG_COOKIE = "lang";
export const LANG_PARAM = "lang";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Where a reader of each language most likely plays: the zone of times that belong to no save. */
const LOCALE_REGION: Record<Locale, Region> = { "zh-Hans": "cn", "zh-Hant": "tw", ja: "jp", ko: "kr", en: "en" };

/** The game server a reader of this language most likely plays on. */
export const regionOfLocale = (locale: Locale): Region => LOCALE_REGION[locale];

export interface PageLang {
  locale: Locale;
  t: Messages;
  /** Links of the language switch, by language; null when PAGE_LOCALE fixes the language or the page answers a form. */
  switchTo: Record<Locale, string> | null;
  /** The zone of a save's times, by the save's region. */
  zoneOf: (region: Region | null) => string;
  /** The zone of times that belong to no save (reports, tokens): the newest save's region's, else the language's. */
  zone: string;
}

const isLocale = (value: string | undefined): value is Locale => value !== undefined && (LOCALES as readonly string[]).includes(value);

/** `remember`: a page's `?lang=` is kept in the cookie (a plain-text refusal only reads it). */
function chosenLocale(c: Context, config: Pick<Config, "pages">, remember: boolean): { locale: Locale; fixed: boolean } {
  if (config.pages.locale !== null) return { locale: config.pages.locale, fixed: true };
  const asked = c.req.query(LANG_PARAM);
  if (isLocale(asked)) {
    if (remember) setCookie(c, LANG_COOKIE, asked, { path: "/", maxAge: YEAR_SECONDS, sameSite: "Lax", httpOnly: true });
    return { locale: asked, fixed: false };
  }
  const remembered = getCookie(c, LANG_COOKIE);
  if (isLocale(remembered)) return { locale: remembered, fixed: false };
  return { locale: negotiateLocale(c.req.header("accept-language")) ?? "en", fixed: false };
}

function switchLinks(c: Context, path: string | undefined): Record<Locale, string> {
  const url = path === undefined ? new URL(c.req.url) : new URL(path, c.req.url);
  const links = {} as Record<Locale, string>;
  for (const locale of LOCALES) {
    url.searchParams.set(LANG_PARAM, locale);
    links[locale] = `${url.pathname}${url.search}`;
  }
  return links;
}

/**
 * `switchPath`: where the switch leads instead of this page's own address (the login form, shown in place of any
 * owner page, must not repeat that page's address: it can name a player). `newest`: the newest save, when the
 * page shows times that belong to no save.
 */
export function pageLang(c: Context, config: Pick<Config, "pages" | "maps">, switchPath?: string, newest?: { region: Region | null }): PageLang {
  const { locale, fixed } = chosenLocale(c, config, true);
  c.header("Content-Language", locale);
  return {
    locale,
    t: MESSAGES[locale],
    switchTo: fixed || c.req.method !== "GET" ? null : switchLinks(c, switchPath),
    zoneOf: (region) => timeZoneFor(config.maps, region),
    zone: timeZoneFor(config.maps, newest === undefined ? LOCALE_REGION[locale] : newest.region),
  };
}

/** The page text alone (plain-text errors shown in the browser). */
export const pageText = (c: Context, config: Pick<Config, "pages">): Messages => MESSAGES[chosenLocale(c, config, false).locale];
