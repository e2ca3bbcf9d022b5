/**
 * The files a phone installs by URL, named under a link root (`<base>/setup/<token>` or `<base>/p/<token>`):
 * `<region>/<app>.<ext>` (the module), `<region>/<app>-full.<ext>` (with the full-payload rewrite) and
 * `<region>/<app>.js` (the upload script the module runs). Plus each app's install link.
 * Install-link forms, as the apps' own docs and many public modules use them:
 * - Surge: surge:///install-module?url=<url-encoded> (manual.nssurge.com/others/url-scheme.html)
 * - Shadowrocket: shadowrocket://install?module=<url-encoded>
 * - Loon: loon://import?plugin=<url-encoded>
 * - Quantumult X: quantumult-x:///add-resource?remote-resource=<url-encoded JSON {"rewrite_remote": [...]}>
 *   (crossutility/Quantumult-X url-scheme.md)
 * - Stash: stash://install-override?url=<url-encoded>
 */
import { MODULE_FORMATS, type ProxyApp } from "./modules.ts";
import type { Region } from "./regions.ts";
import type { Locale } from "../i18n/locales.ts";
import { CAPTURE_TEXT } from "./strings.ts";
import { httpClientUploadScript, quantumultXUploadScript } from "./upload-script.ts";

export const PROXY_APPS = Object.keys(MODULE_FORMATS) as ProxyApp[];

export const APP_LABELS: Record<ProxyApp, string> = {
  surge: "Surge",
  shadowrocket: "Shadowrocket",
  loon: "Loon",
  quantumultx: "Quantumult X",
  stash: "Stash",
};

export type SetupFile = { kind: "module"; app: ProxyApp; full: boolean } | { kind: "script"; app: ProxyApp };

const FILE_NAME = /^(surge|shadowrocket|loon|quantumultx|stash)(-full)?\.([a-z]+)$/;

/** `surge-full.sgmodule` → the file it names; anything else → null. */
export function parseSetupFile(name: string): SetupFile | null {
  const match = FILE_NAME.exec(name);
  if (!match) return null;
  const app = match[1] as ProxyApp;
  const full = match[2] !== undefined;
  if (match[3] === "js") return full ? null : { kind: "script", app };
  return match[3] === MODULE_FORMATS[app].extension ? { kind: "module", app, full } : null;
}

/** `?lang=`: the module (and the script it names) speak the language of the page it came from. */
const langQuery = (locale: Locale | undefined) => (locale === undefined ? "" : `?lang=${locale}`);

export const moduleUrl = (root: string, region: Region, app: ProxyApp, full: boolean, locale?: Locale) =>
  `${root}/${region}/${app}${full ? "-full" : ""}.${MODULE_FORMATS[app].extension}${langQuery(locale)}`;

export const scriptUrl = (root: string, region: Region, app: ProxyApp, locale?: Locale) => `${root}/${region}/${app}.js${langQuery(locale)}`;

export interface SetupFileOptions {
  /** The link root the file was served under. */
  root: string;
  /** Where the script posts: the service's base URL (or a player link's root). */
  serverUrl: string;
  uploadToken?: string;
  /** The language the file names itself and logs in. */
  locale: Locale;
}

/** The text of a served file. */
export function setupFileText(file: SetupFile, region: Region, options: SetupFileOptions): string {
  if (file.kind === "module") {
    const { locale } = options;
    return MODULE_FORMATS[file.app].generate(region, { scriptUrl: scriptUrl(options.root, region, file.app, locale), forceFullPayload: file.full, locale });
  }
  const script = file.app === "quantumultx" ? quantumultXUploadScript : httpClientUploadScript;
  return script({ serverUrl: options.serverUrl, uploadToken: options.uploadToken, locale: options.locale });
}

/** The link that opens the app on its install screen for a module URL. */
export function installLink(app: ProxyApp, url: string, region: Region, locale: Locale = "en"): string {
  const encoded = encodeURIComponent(url);
  switch (app) {
    case "surge":
      return `surge:///install-module?url=${encoded}`;
    case "shadowrocket":
      return `shadowrocket://install?module=${encoded}`;
    case "loon":
      return `loon://import?plugin=${encoded}`;
    case "stash":
      return `stash://install-override?url=${encoded}`;
    case "quantumultx": {
      const resource = { rewrite_remote: [`${url}, tag=${CAPTURE_TEXT[locale].title(region.toUpperCase())}, update-interval=86400, opt-parser=false, enabled=true`] };
      return `quantumult-x:///add-resource?remote-resource=${encodeURIComponent(JSON.stringify(resource))}`;
    }
  }
}
