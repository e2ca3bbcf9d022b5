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
import { Section } from "../status/layout.tsx";

const CSS = `
.picker{display:flex;flex-wrap:wrap;gap:6px;margin:4px 0 10px}.picker a{padding:4px 10px;border-radius:14px;background:#e8ecf3;color:inherit;text-decoration:none}
.picker a.on{background:#2f5fd0;color:#fff}.copy{display:flex;gap:6px;align-items:center}.copy input,.copy textarea{margin:4px 0;font:13px ui-monospace,monospace;width:100%;box-sizing:border-box;padding:6px;resize:none}
label{display:block;margin-top:6px}a.install{display:inline-block;margin:6px 0;padding:8px 14px;border-radius:8px;background:#2f5fd0;color:#fff;text-decoration:none}
.qr svg{width:180px;height:180px}dl{margin:0}dt{font-weight:600;margin-top:8px}dd{margin:0}
`;

/** Copy buttons: the clipboard API where the page is a secure context, else select-and-copy. */
const COPY_SCRIPT = `document.addEventListener("click",function(e){var b=e.target.closest("button[data-copy]");if(!b)return;
var i=document.getElementById(b.getAttribute("data-copy"));var done=function(){b.textContent="copied"};
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

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <label>
      {label}
      <span class="copy">
        {value.includes("\n") ? <textarea id={id} readonly wrap="off" rows={value.split("\n").length + 1}>{value}</textarea> : <input id={id} readonly value={value} />}
        <button type="button" data-copy={id}>
          copy
        </button>
      </span>
    </label>
  );
}

const query = (choice: SetupChoice) => `?region=${choice.region}&app=${choice.app}${choice.full ? "&full=1" : ""}`;

function Pickers({ choice, path }: { choice: SetupChoice; path: string }) {
  return (
    <>
      <div class="picker" aria-label="region">
        {REGIONS.map((region) => (
          <a class={region === choice.region ? "on" : ""} href={`${path}${query({ ...choice, region })}`}>
            {region.toUpperCase()}
          </a>
        ))}
      </div>
      <div class="picker" aria-label="app">
        {PROXY_APPS.map((app) => (
          <a class={app === choice.app ? "on" : ""} href={`${path}${query({ ...choice, app })}`}>
            {APP_LABELS[app]}
          </a>
        ))}
      </div>
    </>
  );
}

function ModuleCard({ root, choice, path }: { root: string; choice: SetupChoice; path: string }) {
  const url = moduleUrl(root, choice.region, choice.app, choice.full);
  const label = APP_LABELS[choice.app];
  return (
    <Section title={`${label} · ${choice.region.toUpperCase()}`}>
      <a class="install" id="install" href={installLink(choice.app, url, choice.region)}>
        Install in {label}
      </a>
      <CopyField id="module-url" label="Module URL (or add it by URL in the app)" value={url} />
      <p>
        <a id="full" href={`${path}${query({ ...choice, full: !choice.full })}`}>
          {choice.full ? "☑" : "☐"} always ask the game for the full payload
        </a>{" "}
        <span class="muted">(adds the rewrite isForceAllReloadOnlyMysekai=False → True)</span>
      </p>
      <p class="muted">Scan from another screen:</p>
      <div class="qr">{raw(renderSVG(url, { border: 2 }))}</div>
      <p class="muted">Then turn on MITM (HTTPS decryption) and trust the app's certificate, and open MySekai in the game.</p>
    </Section>
  );
}

function ReportToolsCard({ report, region }: { report: ReportSettings; region: Region }) {
  const rule = REGION_HOSTS[region].map((host) => `https://${host}/api/user/*/mysekai*`).join("\n");
  return (
    <Section title="Reqable and ProxyPin">
      <dl>
        <dt>Reqable · Report Server (v2.20.0+)</dt>
        <dd>
          <CopyField id="reqable-url" label="Server URL" value={report.url} />
          <CopyField id="reqable-rule" label={`URL rule (one per host of ${region.toUpperCase()})`} value={rule} />
          <p>Compression: any (none, gzip, br, zstd or deflate all work).</p>
          {report.token === null ? null : <CopyField id="reqable-tag" label="Reporter tag (v2.32.2+; carries REPORT_TOKEN)" value={report.token} />}
        </dd>
        <dt>ProxyPin · Report server</dt>
        <dd>
          <CopyField id="proxypin-url" label="Server URL" value={report.url} />
          <CopyField id="proxypin-rule" label="URL rule" value={rule} />
          <p>
            Compression: any.{" "}
            {report.token === null ? null : "ProxyPin sends no token header: with REPORT_TOKEN set its reports get 401; keep a secret REPORT_PATH instead."}
          </p>
        </dd>
      </dl>
    </Section>
  );
}

export function SetupView({ root, choice, path, report }: { root: string; choice: SetupChoice; path: string; report: ReportSettings | null }) {
  return (
    <>
      <style>{CSS}</style>
      <Pickers choice={choice} path={path} />
      <ModuleCard root={root} choice={choice} path={path} />
      {report === null ? null : <ReportToolsCard report={report} region={choice.region} />}
      <script>{raw(COPY_SCRIPT)}</script>
    </>
  );
}

/** The choice in a page's query; bad values fall back to the defaults. */
export function setupChoice(params: { region?: string; app?: string; full?: string }): SetupChoice {
  const region = (REGIONS as string[]).includes(params.region ?? "") ? (params.region as Region) : "jp";
  const app = (PROXY_APPS as string[]).includes(params.app ?? "") ? (params.app as ProxyApp) : "surge";
  return { region, app, full: params.full === "1" };
}
