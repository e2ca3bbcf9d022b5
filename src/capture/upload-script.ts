/**
 * The upload script the capture modules run on the game's MySekai response, one per script API:
 * `$httpClient` (Surge, Shadowrocket, Loon, Stash: `$response.body` is a Uint8Array with binary-body-mode)
 * and `$task` (Quantumult X: `$response.bodyBytes` is an ArrayBuffer, `$task.fetch` takes `bodyBytes`).
 *
 * It hands the game its response untouched at once (`$done({})` before anything else: the capture tool
 * never retries and the game must not wait on our server), then posts the body to the upload endpoint in
 * one request as a single chunk under a fresh random upload id. It never posts a typed-array view with an
 * offset (one proxy app sends the view's whole underlying buffer): such a body is copied first.
 * The server URL and the upload token are baked in as JS string literals.
 */
import { MAX_UPLOAD_BYTES, UPLOAD_PATHS } from "../contract.ts";
import type { Locale } from "../i18n/locales.ts";
import { CAPTURE_TEXT } from "./strings.ts";

export interface UploadScriptOptions {
  /** The service's public base URL (http or https, may end in a path prefix; no query). */
  serverUrl: string;
  /** UPLOAD_TOKEN, when the service requires one (sent in X-Upload-Token). Secret. */
  uploadToken?: string;
  /** How long the upload request may take, in seconds (1..300). */
  timeoutSeconds?: number;
  /** The language of its log lines (default English). */
  locale?: Locale;
}

export const DEFAULT_UPLOAD_TIMEOUT_SECONDS = 20;

/** A JS string literal for any text (JSON escapes quotes, backslashes, controls; the two separators too). */
export function jsStringLiteral(text: string): string {
  return JSON.stringify(text).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function uploadUrl(serverUrl: string): string {
  const parsed = URL.canParse(serverUrl) ? new URL(serverUrl) : null;
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new Error("serverUrl must be an http(s) URL without query, fragment or credentials");
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}${UPLOAD_PATHS[0]}`;
}

function settings(options: UploadScriptOptions): string {
  const token = options.uploadToken;
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) throw new Error("uploadToken must be printable ASCII without spaces");
  const timeout = options.timeoutSeconds ?? DEFAULT_UPLOAD_TIMEOUT_SECONDS;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 300) throw new Error("timeoutSeconds must be a whole number from 1 to 300");
  return [
    `  var UPLOAD_URL = ${jsStringLiteral(uploadUrl(options.serverUrl))};`,
    `  var UPLOAD_TOKEN = ${token === undefined ? "null" : jsStringLiteral(token)};`,
    `  var MAX_BYTES = ${MAX_UPLOAD_BYTES};`,
    `  var TIMEOUT_SECONDS = ${timeout};`,
    // An object of string literals (JSON is JS, once the two line separators are escaped).
    `  var T = ${JSON.stringify(CAPTURE_TEXT[options.locale ?? "en"].log).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029")};`,
  ].join("\n");
}

/** Shared by both APIs: reads what it needs, answers the game, builds the upload headers. */
const prepare = (bodyExpression: string) => `
  var requestUrl = $request.url;
  var response = $response;
  var body = ${bodyExpression};
  $done({});
  function say(text, a, b) { return text.replace("%1", a).replace("%2", b); }
  function log(message) { console.log("[mysekai-capture] " + message); }
  var status = response.status !== undefined ? response.status : response.statusCode;
  if (typeof status === "number" && (status < 200 || status > 299)) { log(say(T.gameStatus, status)); return; }
  var uploadId = "cap-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10) + Math.random().toString(36).slice(2, 10);
  var headers = {
    "Content-Type": "application/octet-stream",
    "X-Upload-Id": uploadId,
    "X-Chunk-Index": "0",
    "X-Total-Chunks": "1",
    "X-Original-Url": requestUrl
  };
  if (UPLOAD_TOKEN !== null) headers["X-Upload-Token"] = UPLOAD_TOKEN;
  function outOfBounds(size) {
    if (size === 0) { log(T.emptyBody); return true; }
    if (size > MAX_BYTES) { log(say(T.overLimit, size)); return true; }
    return false;
  }`;

/** Surge, Shadowrocket, Loon and Stash. */
export function httpClientUploadScript(options: UploadScriptOptions): string {
  return `// MySekai capture (Surge, Shadowrocket, Loon, Stash): needs binary-body-mode / binary-mode.
(function () {
${settings(options)}
${prepare("response.body")}
  if (!body || typeof body === "string") { log(T.notBinary); return; }
  if (outOfBounds(body.byteLength)) return;
  // A view with an offset is sent as its whole buffer by one app: post a copy of exactly its bytes.
  var bytes = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
  // Loon takes the request timeout in milliseconds, the others in seconds.
  var timeout = typeof $loon !== "undefined" ? TIMEOUT_SECONDS * 1000 : TIMEOUT_SECONDS;
  $httpClient.post({ url: UPLOAD_URL, headers: headers, body: bytes, timeout: timeout }, function (error, reply) {
    if (error) log(say(T.failed, uploadId, error));
    else log(say(T.answered, uploadId, reply.status));
  });
})();
`;
}

/** Quantumult X. */
export function quantumultXUploadScript(options: UploadScriptOptions): string {
  return `// MySekai capture (Quantumult X).
(function () {
${settings(options)}
${prepare("response.bodyBytes")}
  if (!body) { log(T.noBody); return; }
  if (outOfBounds(body.byteLength)) return;
  var bytes = ArrayBuffer.isView(body) ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) : body;
  $task.fetch({ url: UPLOAD_URL, method: "POST", headers: headers, bodyBytes: bytes }).then(
    function (reply) { log(say(T.answered, uploadId, reply.statusCode)); },
    function (reason) { log(say(T.failed, uploadId, reason && reason.error)); }
  );
})();
`;
}
