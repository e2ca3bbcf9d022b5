/**
 * Capture modules for the iOS proxy apps, one pure generator per app: `(region, options) → text`. Each one
 * runs the upload script as an http-response script on the region's MySekai save URL, and by a rule of its own
 * on the birthday party delivery URL, with the body as binary, a size limit and a timeout, decrypts (MITM) the
 * region's hosts, and optionally rewrites the save URL so that the game always gets the full payload. Formats:
 * - Surge module (.sgmodule): https://manual.nssurge.com/scripting/common.html, /http/url-rewrite.html
 * - Shadowrocket reads Surge modules as they are.
 * - Loon plugin (.plugin): https://github.com/Loon0x00/LoonManual docs/cn/plugin.md, script.md, rewrite.md
 * - Quantumult X (.conf): crossutility/Quantumult-X sample.conf ([rewrite_local], [mitm]); it has no
 *   binary, size or timeout switch: its script reads $response.bodyBytes and checks the size itself.
 * - Stash override (.stoverride): https://stash.wiki/en/script/rewrite-requests, /configuration/override
 */
import { resolveModuleOptions, type ModuleOptions, type ResolvedModuleOptions } from "./module-options.ts";
import { CAPTURE_TEXT } from "./strings.ts";
import { birthdayPartyUrlPattern, fullPayloadRewrite, mitmHosts, saveUrlPattern } from "./patterns.ts";
import type { Region } from "./regions.ts";

export type ProxyApp = "surge" | "shadowrocket" | "loon" | "quantumultx" | "stash";

const SCRIPT_NAME = "mysekai-capture";
const title = (region: Region, o: ResolvedModuleOptions) => CAPTURE_TEXT[o.locale].title(region.toUpperCase());
const description = (o: ResolvedModuleOptions) => CAPTURE_TEXT[o.locale].description;

/** The rules' names and URL patterns: the save, and a birthday party's delivery (kept apart by the server). */
const captured = (region: Region) => [
  { name: `${SCRIPT_NAME}-${region}`, pattern: saveUrlPattern(region) },
  { name: `${SCRIPT_NAME}-birthday-party-${region}`, pattern: birthdayPartyUrlPattern(region) },
];

function surgeStyleModule(region: Region, options: ModuleOptions): string {
  const o = resolveModuleOptions(options);
  const rewrite = fullPayloadRewrite(region);
  const script = (pattern: string) =>
    ["type=http-response", `pattern=${pattern}`, "requires-body=1", "binary-body-mode=1", `max-size=${o.maxBytes}`, `timeout=${o.timeoutSeconds}`, `script-path=${o.scriptUrl}`].join(",");
  return lines([
    `#!name=${title(region, o)}`,
    `#!desc=${description(o)}`,
    "",
    ...(o.forceFullPayload ? ["[URL Rewrite]", `${rewrite.pattern} ${rewrite.replacement} header`, ""] : []),
    "[Script]",
    ...captured(region).map(({ name, pattern }) => `${name} = ${script(pattern)}`),
    "",
    "[MITM]",
    `hostname = %APPEND% ${mitmHosts(region).join(", ")}`,
  ]);
}

export const surgeModule = surgeStyleModule;
export const shadowrocketModule = surgeStyleModule;

export function loonPlugin(region: Region, options: ModuleOptions): string {
  const o = resolveModuleOptions(options);
  const rewrite = fullPayloadRewrite(region);
  const params = (tag: string) =>
    [`script-path=${o.scriptUrl}`, "requires-body=true", "binary-body-mode=true", `max-size=${o.maxBytes}`, `timeout=${o.timeoutSeconds}`, `tag=${tag}`].join(", ");
  return lines([
    `#!name=${title(region, o)}`,
    `#!desc=${description(o)}`,
    "",
    ...(o.forceFullPayload ? ["[Rewrite]", `${rewrite.pattern} header ${rewrite.replacement}`, ""] : []),
    "[Script]",
    ...captured(region).map(({ name, pattern }) => `http-response ${pattern} ${params(name)}`),
    "",
    "[MITM]",
    `hostname = ${mitmHosts(region).join(", ")}`,
  ]);
}

export function quantumultXRewrite(region: Region, options: ModuleOptions): string {
  const o = resolveModuleOptions(options);
  const rewrite = fullPayloadRewrite(region);
  return lines([
    `# ${title(region, o)}`,
    `# ${description(o)}`,
    "",
    "[rewrite_local]",
    // QX has no transparent URL rewrite; a 307 keeps the method and body.
    ...(o.forceFullPayload ? [`${rewrite.pattern} url 307 ${rewrite.replacement}`] : []),
    ...captured(region).map(({ pattern }) => `${pattern} url script-response-body ${o.scriptUrl}`),
    "",
    "[mitm]",
    `hostname = ${mitmHosts(region).join(", ")}`,
  ]);
}

/** YAML single-quoted scalar: backslashes stay literal, a quote is doubled. */
const yamlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

export function stashOverride(region: Region, options: ModuleOptions): string {
  const o = resolveModuleOptions(options);
  const rewrite = fullPayloadRewrite(region);
  const name = `${SCRIPT_NAME}-${region}`;
  return lines([
    `name: ${yamlString(title(region, o))}`,
    `desc: ${yamlString(description(o))}`,
    "",
    "http:",
    ...(o.forceFullPayload ? ["  url-rewrite:", `    - ${yamlString(`${rewrite.pattern} ${rewrite.replacement} header`)}`] : []),
    "  mitm:",
    ...mitmHosts(region).map((host) => `    - ${yamlString(host)}`),
    "  script:",
    // Both rules run the one script provider.
    ...captured(region).flatMap(({ pattern }) => [
      `    - match: ${yamlString(pattern)}`,
      `      name: ${name}`,
      "      type: response",
      "      require-body: true",
      "      binary-mode: true",
      `      max-size: ${o.maxBytes}`,
      `      timeout: ${o.timeoutSeconds}`,
    ]),
    "",
    "script-providers:",
    `  ${name}:`,
    `    url: ${yamlString(o.scriptUrl)}`,
    "    interval: 86400",
  ]);
}

const lines = (parts: string[]) => `${parts.join("\n")}\n`;

/** Each app's generator and the file extension its module is installed under. */
export const MODULE_FORMATS: Record<ProxyApp, { extension: string; generate: (region: Region, options: ModuleOptions) => string }> = {
  surge: { extension: "sgmodule", generate: surgeModule },
  shadowrocket: { extension: "sgmodule", generate: shadowrocketModule },
  loon: { extension: "plugin", generate: loonPlugin },
  quantumultx: { extension: "conf", generate: quantumultXRewrite },
  stash: { extension: "stoverride", generate: stashOverride },
};
