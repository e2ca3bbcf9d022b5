/** The owner's text outside the pages (start log, CLI), by locale: `ownerMessages(config.ownerLocale)`. */
import type { Locale } from "../locales.ts";
import { cliEn, type CliMessages } from "./cli-en.ts";
import { cliJa } from "./cli-ja.ts";
import { cliKo } from "./cli-ko.ts";
import { cliZhHans } from "./cli-zh-hans.ts";
import { cliZhHant } from "./cli-zh-hant.ts";
import { catalogueEn, type CatalogueMessages } from "./catalogue-en.ts";
import { catalogueJa } from "./catalogue-ja.ts";
import { catalogueKo } from "./catalogue-ko.ts";
import { catalogueZhHans } from "./catalogue-zh-hans.ts";
import { catalogueZhHant } from "./catalogue-zh-hant.ts";
import { configEn, type ConfigMessages } from "./config-en.ts";
import { configJa } from "./config-ja.ts";
import { configKo } from "./config-ko.ts";
import { configZhHans } from "./config-zh-hans.ts";
import { configZhHant } from "./config-zh-hant.ts";
import { initEn, type InitMessages } from "./init-en.ts";
import { initJa } from "./init-ja.ts";
import { initKo } from "./init-ko.ts";
import { initZhHans } from "./init-zh-hans.ts";
import { initZhHant } from "./init-zh-hant.ts";
import { ownerEn, type OwnerMessages } from "./en.ts";
import { ownerJa } from "./ja.ts";
import { ownerKo } from "./ko.ts";
import { ownerZhHans } from "./zh-hans.ts";
import { ownerZhHant } from "./zh-hant.ts";

export type { OwnerMessages } from "./en.ts";
export type { CliMessages } from "./cli-en.ts";
export type { ConfigMessages } from "./config-en.ts";
export type { CatalogueMessages } from "./catalogue-en.ts";
export type { InitMessages } from "./init-en.ts";

const OWNER_MESSAGES: Record<Locale, OwnerMessages> = { "zh-Hans": ownerZhHans, "zh-Hant": ownerZhHant, ja: ownerJa, ko: ownerKo, en: ownerEn };

export const ownerMessages = (locale: Locale): OwnerMessages => OWNER_MESSAGES[locale];

const CLI_MESSAGES: Record<Locale, CliMessages> = { "zh-Hans": cliZhHans, "zh-Hant": cliZhHant, ja: cliJa, ko: cliKo, en: cliEn };

/** The owner CLI's words (src/cli.ts): `cliMessages(ownerLocaleOf())`. */
export const cliMessages = (locale: Locale): CliMessages => CLI_MESSAGES[locale];

const CONFIG_MESSAGES: Record<Locale, ConfigMessages> = { "zh-Hans": configZhHans, "zh-Hant": configZhHant, ja: configJa, ko: configKo, en: configEn };

/** Why a setting stops the start (src/config/parse.ts ConfigError). */
export const configMessages = (locale: Locale): ConfigMessages => CONFIG_MESSAGES[locale];

const CATALOGUE_MESSAGES: Record<Locale, CatalogueMessages> = { "zh-Hans": catalogueZhHans, "zh-Hant": catalogueZhHant, ja: catalogueJa, ko: catalogueKo, en: catalogueEn };

/** What `catalogue update` and `catalogue show` say (src/cli-catalogue.ts, src/catalogue/sources.ts SourceError). */
export const catalogueMessages = (locale: Locale): CatalogueMessages => CATALOGUE_MESSAGES[locale];

const INIT_MESSAGES: Record<Locale, InitMessages> = { "zh-Hans": initZhHans, "zh-Hant": initZhHant, ja: initJa, ko: initKo, en: initEn };

/** The first-run wizard's words (src/init/, `npm run init`). */
export const initMessages = (locale: Locale): InitMessages => INIT_MESSAGES[locale];
