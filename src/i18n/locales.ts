/**
 * The five languages of the pages and the maps (the game's regions read them): their names, the setting values
 * each accepts (MAP_LOCALE, PAGE_LOCALE, the page switch) and the choice among them by Accept-Language.
 */
export const LOCALES = ["zh-Hans", "zh-Hant", "ja", "ko", "en"] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language by its own name: the page switch shows them so, whatever the page's language. */
export const LOCALE_NAMES: Record<Locale, string> = { "zh-Hans": "简体中文", "zh-Hant": "繁體中文", ja: "日本語", ko: "한국어", en: "English" };

/** Traditional script regions and tags; every other Chinese tag reads simplified. */
const TRADITIONAL = new Set(["hant", "tw", "hk", "mo"]);

/**
 * A BCP 47 tag or a setting value (`zh` stays accepted as simplified Chinese, the maps' first setting) → a locale,
 * or null for a language none of the five is.
 */
export function localeOf(tag: string): Locale | null {
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  switch (parts[0]) {
    case "zh":
      return parts.slice(1).some((part) => TRADITIONAL.has(part)) ? "zh-Hant" : "zh-Hans";
    case "ja":
    case "ko":
    case "en":
      return parts[0];
    default:
      return null;
  }
}

/** At most this many Accept-Language entries are read: a header of thousands costs no more. */
const MAX_RANGES = 32;

/** The best of the five for an Accept-Language header (q-values honoured, order breaks ties), or null. */
export function negotiateLocale(header: string | null | undefined): Locale | null {
  if (!header) return null;
  let best: { locale: Locale; q: number } | null = null;
  for (const range of header.split(",").slice(0, MAX_RANGES)) {
    const [tag = "", ...params] = range.split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const locale = localeOf(tag);
    if (locale !== null && Number.isFinite(q) && q > 0 && (best === null || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? null;
}
