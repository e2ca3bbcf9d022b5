/** Every language's page text, by locale (src/i18n/locales.ts). */
import type { Locale } from "../locales.ts";
import { en, type Messages } from "./en.ts";
import { ja } from "./ja.ts";
import { ko } from "./ko.ts";
import { zhHans } from "./zh-hans.ts";
import { zhHant } from "./zh-hant.ts";

export type { Messages } from "./en.ts";

export const MESSAGES: Record<Locale, Messages> = { "zh-Hans": zhHans, "zh-Hant": zhHant, ja, ko, en };
