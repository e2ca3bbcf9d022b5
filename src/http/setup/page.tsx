/** @jsxImportSource hono/jsx */
/**
 * The capture setup view, shared by the owner's /setup and a player's /p/<token>: pick a region and an app,
 * then install the module by link, by URL or by QR code; Reqable and ProxyPin settings on the owner's page.
 */
import { raw } from "hono/html";
import { renderSVG } from "uqr";
import type { ProxyApp } from "../../capture/modules.ts";
import { REGION_HOSTS, REGIONS, type Region } from "../../capture/regions.ts";
import { APP_LABELS, installLink, moduleUrl, PROXY_APPS } from "../../capture/setup-files.ts";
import type { Messages } from "../../i18n/messages/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { Section } from "../status/layout.tsx";
import { regionOfLocale } from "../page-lang.ts";
import { SetupSteps, type FirstSaveCheck } from "./steps.tsx";

const CSS = `
.picker{display:flex;flex-wrap:wrap;gap:6px;margin:4px 0 10px}.picker a{padding:4px 10px;border-radius:14px;background:#e8ecf3;color:inherit;text-decoration:none}
.picker a.on{background:#2f5fd0;color:#fff}.copy{display:flex;gap:6px;align-items:center}.copy input,.copy textarea{margin:4px 0;font:13px ui-monospace,monospace;width:100%;box-sizing:border-box;padding:6px;resize:none}
.copy button{white-space:nowrap}label{display:block;margin-top:6px}a.install{display:inline-block;margin:6px 0;padding:8px 14px;border-radius:8px;background:#2f5fd0;color:#fff;text-decoration:none}
.qr svg{width:180px;height:180px}dl{margin:0}dt{font-weight:600;margin-top:8px}dd{margin:0}
`;

/** Copy buttons: the clipboard API where the page is a secure context, else select-and-copy; the button then says `data-copied`. */
const COPY_SCRIPT = `document.addEventListener("click",function(e){var b=e.target.closest("button[data-copy]");if(!b)return;
var i=document.getElementById(b.getAttribute("data-copy"));var done=function(){b.textContent=b.getAttribute("data-copied")};
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(i.value).then(done)}else{i.select();document.execCommand("copy");done()}});`;

export interface SetupChoice {
  region: Region;
  app: ProxyApp;
  full: boolean;
}

export interface ReportSettings {
  /** The report URL with REPORT_PATH (a secret when not the default: the owner's page only). */
  url: string;
  /** REPORT_TOKEN, when set: Reqable's reporter tag carries it. */
  token: string | null;
}

function CopyField({ id, label, value, t }: { id: string; label: string; value: string; t: Messages }) {
  return (
    <label>
      {label}
      <span class="copy">
        {value.includes("\n") ? <textarea id={id} readonly wrap="off" rows={value.split("\n").length + 1}>{value}</textarea> : <input id={id} readonly value={value} />}
        <button type="button" data-copy={id} data-copied={t.copied}>
          {t.copy}
        </button>
      </span>
    </label>
  );
}

const query = (choice: SetupChoice) => `?region=${choice.region}&app=${choice.app}${choice.full ? "&full=1" : ""}`;

function Pickers({ choice, path, t }: { choice: SetupChoice; path: string; t: Messages }) {
  return (
    <>
      <div class="picker" aria-label={t.region}>
        {REGIONS.map((region) => (
          <a class={region === choice.region ? "on" : ""} href={`${path}${query({ ...choice, region })}`}>
            {region.toUpperCase()}
          </a>
        ))}
      </div>
      <div class="picker" aria-label={t.app}>
        {PROXY_APPS.map((app) => (
          <a class={app === choice.app ? "on" : ""} href={`${path}${query({ ...choice, app })}`}>
            {APP_LABELS[app]}
          </a>
        ))}
      </div>
    </>
  );
}

function ModuleCard({ root, choice, path, t, locale, check }: { root: string; choice: SetupChoice; path: string; t: Messages; locale: Locale; check: FirstSaveCheck | null }) {
  const url = moduleUrl(root, choice.region, choice.app, choice.full, locale);
  const label = APP_LABELS[choice.app];
  return (
    <Section title={`${label} · ${choice.region.toUpperCase()}`}>
      <a class="install" id="install" href={installLink(choice.app, url, choice.region, locale)}>
        {t.installIn(label)}
      </a>
      <CopyField id="module-url" label={t.moduleUrl} value={url} t={t} />
      <p>
        <a id="full" href={`${path}${query({ ...choice, full: !choice.full })}`}>
          {choice.full ? "☑" : "☐"} {t.fullPayload}
        </a>{" "}
        <span class="muted">
          ({t.fullPayloadRewrite} <code translate="no">isForceAllReloadOnlyMysekai=False → True</code>)
        </span>
      </p>
      <p class="muted">{t.scanQr}</p>
      <div class="qr">{raw(renderSVG(url, { border: 2 }))}</div>
      <SetupSteps app={choice.app} t={t} check={check} />
    </Section>
  );
}

function ReportToolsCard({ report, region, t }: { report: ReportSettings; region: Region; t: Messages }) {
  const rule = REGION_HOSTS[region].map((host) => `https://${host}/api/user/*/mysekai*`).join("\n");
  return (
    <Section title={t.reportTools("Reqable", "ProxyPin")}>
      <dl>
        <dt>Reqable · {t.reportServer} (v2.20.0+)</dt>
        <dd>
          <CopyField id="reqable-url" label={t.serverUrl} value={report.url} t={t} />
          <CopyField id="reqable-rule" label={t.urlRuleFor(region.toUpperCase())} value={rule} t={t} />
          <p>{t.compressionAny}</p>
          {report.token === null ? null : <CopyField id="reqable-tag" label={t.reporterTag("REPORT_TOKEN")} value={report.token} t={t} />}
        </dd>
        <dt>ProxyPin · {t.reportServer}</dt>
        <dd>
          <CopyField id="proxypin-url" label={t.serverUrl} value={report.url} t={t} />
          <CopyField id="proxypin-rule" label={t.urlRule} value={rule} t={t} />
          <p>
            {t.compressionShort} {report.token === null ? null : t.proxyPinNoToken("REPORT_TOKEN", "REPORT_PATH")}
          </p>
        </dd>
      </dl>
    </Section>
  );
}

interface SetupViewProps {
  root: string;
  choice: SetupChoice;
  path: string;
  report: ReportSettings | null;
  t: Messages;
  locale: Locale;
  /** The first-save check the page runs; null: none. */
  check: FirstSaveCheck | null;
}

export function SetupView({ root, choice, path, report, t, locale, check }: SetupViewProps) {
  return (
    <>
      <style>{CSS}</style>
      <Pickers choice={choice} path={path} t={t} />
      <ModuleCard root={root} choice={choice} path={path} t={t} locale={locale} check={check} />
      {report === null ? null : <ReportToolsCard report={report} region={choice.region} t={t} />}
      <script>{raw(COPY_SCRIPT)}</script>
    </>
  );
}

/** The app most readers of a language use: Shadowrocket among Chinese readers, else Surge. */
const APP_OF_LOCALE: Record<Locale, ProxyApp> = { "zh-Hans": "shadowrocket", "zh-Hant": "shadowrocket", ja: "surge", ko: "surge", en: "surge" };

/**
 * The choice in a page's query; what it leaves out is preselected: the region of the player's saves (`savesRegion`),
 * else the reader's language's, and the app its readers use most.
 */
export function setupChoice(params: { region?: string; app?: string; full?: string }, locale: Locale, savesRegion: Region | null = null): SetupChoice {
  const region = (REGIONS as string[]).includes(params.region ?? "") ? (params.region as Region) : (savesRegion ?? regionOfLocale(locale));
  const app = (PROXY_APPS as string[]).includes(params.app ?? "") ? (params.app as ProxyApp) : APP_OF_LOCALE[locale];
  return { region, app, full: params.full === "1" };
}
