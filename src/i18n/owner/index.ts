/** The owner's text outside the pages (start log, CLI), by locale: `ownerMessages(config.ownerLocale)`. */
import type { Locale } from "../locales.ts";
import { ownerEn, type OwnerMessages } from "./en.ts";
import { ownerJa } from "./ja.ts";
import { ownerKo } from "./ko.ts";
import { ownerZhHans } from "./zh-hans.ts";
import { ownerZhHant } from "./zh-hant.ts";

export type { OwnerMessages } from "./en.ts";

const OWNER_MESSAGES: Record<Locale, OwnerMessages> = { "zh-Hans": ownerZhHans, "zh-Hant": ownerZhHant, ja: ownerJa, ko: ownerKo, en: ownerEn };

export const ownerMessages = (locale: Locale): OwnerMessages => OWNER_MESSAGES[locale];
