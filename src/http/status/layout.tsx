/** @jsxImportSource hono/jsx */
/** The page frame of the owner's view: readable on a phone, no scripts, no external assets. */
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { LOCALE_NAMES, LOCALES } from "../../i18n/locales.ts";
import { zonedParts } from "../../i18n/zones.ts";
import type { PageLang } from "../page-lang.ts";

const CSS = `
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#f6f7f9;color:#1d2330;max-width:1100px;margin:auto}
h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:20px 0 8px}
section{background:#fff;border-radius:8px;padding:10px 12px;margin-bottom:12px;box-shadow:0 1px 2px #0001}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{padding:4px 6px;border-bottom:1px solid #eee;text-align:left;vertical-align:top;white-space:nowrap}td.err{white-space:normal;min-width:160px}
.scroll{overflow-x:auto}.muted{color:#667}.err{color:#a32020;word-break:break-word;font-size:12px}
.tag{display:inline-block;padding:0 6px;border-radius:9px;background:#e8ecf3;font-size:12px}
.tag.failed{background:#fbdada}.tag.done,.tag.save,.tag.sent{background:#d8f1dd}.tag.running,.tag.pending{background:#fff1c7}
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:8px}.stats div{background:#f0f3f8;border-radius:6px;padding:6px 8px}
.stats b{display:block;font-size:18px}.maps{display:grid;grid-template-columns:repeat(auto-fill,minmax(104px,1fr));gap:6px}
.maps img{display:block;width:100%;height:auto;border-radius:4px;border:1px solid #ddd;background:#fff}
.banner{background:#fff4d6;border:1px solid #e3b341;border-radius:8px;padding:8px 12px;margin:0 0 12px;font-size:14px}
td.id{word-break:break-all}code,a.url{overflow-wrap:anywhere}
.player{margin-bottom:10px}.player b{overflow-wrap:anywhere}button{font:inherit;padding:4px 10px;border-radius:6px;border:1px solid #8894aa;background:#fff}
form.inline{display:inline}form.new-token{margin-top:14px}input{font:inherit;padding:6px;width:100%;box-sizing:border-box;margin:6px 0}
header{display:flex;justify-content:space-between;align-items:center;flex-wrap:wrap;gap:6px}
nav.lang{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:2px 10px;font-size:13px;margin:-4px 0 6px}nav.lang a{color:#2f5fd0;text-decoration:none}nav.lang a[aria-current]{color:inherit;font-weight:600}
time{white-space:nowrap}time .zone{color:#667;font-size:.85em}
details.setup{background:#fff;border-radius:8px;padding:0 12px 10px;margin-bottom:12px;box-shadow:0 1px 2px #0001}summary{cursor:pointer}summary h2{display:inline-block}
details.older>summary{margin:10px 0 4px;color:#2f5fd0}td.err details>code{display:block;margin-top:4px;color:#667}
@media (max-width:600px){.scroll table,.scroll tbody,.scroll tr,.scroll td{display:block}.scroll tr:has(th){display:none}
.scroll tr{padding:6px 0;border-bottom:1px solid #eee}.scroll td{border:0;padding:1px 0;white-space:normal}td.err{min-width:0}}
`;

/** The language switch: each language in its own name, the page's own marked; links keep the page's query. */
function LangSwitch({ lang }: { lang: PageLang }) {
  if (lang.switchTo === null) return null;
  const links = lang.switchTo;
  return (
    <nav class="lang" aria-label={lang.t.language}>
      {LOCALES.map((locale) => (
        <a href={links[locale]} lang={locale} hreflang={locale} aria-current={locale === lang.locale ? "true" : undefined}>
          {LOCALE_NAMES[locale]}
        </a>
      ))}
    </nav>
  );
}

/** `title` is the page's own part of the title, after the service's name. */
export function Layout({ title, lang, children }: { title: string | null; lang: PageLang; children: Child }) {
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang={lang.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title === null ? lang.t.appName : `${lang.t.appName} · ${title}`}</title>
        <style>{CSS}</style>
      </head>
      <body>
        <LangSwitch lang={lang} />
        {children}
      </body>
      </html>
    </>
  );
}

export function Section({ title, children }: { title: string; children: Child }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** A section of table rows under a header; with `empty`, that line instead (the empty table stays, hidden). */
export function TableSection({ title, empty, head, children }: { title: string; empty: string | null; head: string[]; children: Child }) {
  return (
    <Section title={title}>
      {empty === null ? null : <p class="muted">{empty}</p>}
      <div class="scroll" hidden={empty !== null}>
        <table>
          <tr>{head.map((name) => <th>{name}</th>)}</tr>
          {children}
        </table>
      </div>
    </Section>
  );
}

/** A state as a coloured tag: styled by its value, read in the page's language (`names`). */
export function Tag({ value, names }: { value: string | null; names: Record<string, string> }) {
  return <span class={`tag ${value ?? ""}`}>{value === null ? "–" : (names[value] ?? value)}</span>;
}

/** "03-23 07:42 UTC+8" (`day`: the month and day too) in `zone`: every time on a page says its zone. */
export function Time({ ms, zone, day = true }: { ms: number | null; zone: string; day?: boolean }) {
  if (ms === null) return <span class="muted">–</span>;
  const date = new Date(ms);
  const parts = zonedParts(date, zone);
  return (
    <time datetime={date.toISOString()}>
      {day ? `${parts.date.slice(5)} ${parts.time}` : parts.time} <span class="zone">{parts.zone}</span>
    </time>
  );
}

export function bytesText(bytes: number | null): string {
  if (bytes === null) return "–";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
