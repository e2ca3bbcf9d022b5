/**
 * Capture-tool metadata headers worth a log line, cleaned for logging: control characters
 * removed, values trimmed and cut short.
 *
 * Reqable (Report Server docs): x-reqable-platform (windows, android, ios ...),
 * x-reqable-reporter-host (the session's host), x-reqable-reporter-rule (the matched rule),
 * x-reqable-reporter-tag (optional user tag, newer versions) is deliberately left out: it is
 * the only header a user can set in Reqable, so it may carry the report token.
 * ProxyPin (ReportServerInterceptor): X-Report-Name (rule name, URI-encoded),
 * X-Report-Phase (request | response | message, only for split reports).
 */
/** Only the headers that were present: `platform`, `host`, `rule`. */
export type ReqableMeta = Record<string, string>;

/** Only the headers that were present: `name`, `phase`. */
export type ProxyPinMeta = Record<string, string>;

const MAX_VALUE = 64;

/** Header values arrive as Latin-1 byte strings; raw UTF-8 (a rule named in Chinese) is re-read. */
function fromByteString(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}

export function cleanHeaderValue(value: string | null): string | undefined {
  if (value === null) return undefined;
  const clean = fromByteString(value)
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, "")
    .trim();
  if (clean === "") return undefined;
  const chars = Array.from(clean);
  return chars.length > MAX_VALUE ? `${chars.slice(0, MAX_VALUE).join("")}...` : clean;
}

function present(record: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out;
}

export function reqableMeta(headers: Headers): ReqableMeta {
  return present({
    platform: cleanHeaderValue(headers.get("x-reqable-platform") ?? headers.get("x-reqable-reporter-platform")),
    host: cleanHeaderValue(headers.get("x-reqable-reporter-host")),
    rule: cleanHeaderValue(headers.get("x-reqable-reporter-rule")),
  });
}

function decodeUriComponentSafe(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function proxyPinMeta(headers: Headers): ProxyPinMeta {
  return present({
    name: cleanHeaderValue(decodeUriComponentSafe(headers.get("x-report-name"))),
    phase: cleanHeaderValue(headers.get("x-report-phase"))?.toLowerCase(),
  });
}
