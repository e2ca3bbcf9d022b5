/** The one place channels talk HTTP: timeout, network-error and status classification, redaction. */
import { DeliveryError, redact } from "./errors.ts";

export interface HttpContext {
  /** Channel name, first word of every error message. */
  channel: string;
  timeoutMs: number;
  /** Strings that must never appear in an error message (token, device key, webhook URL ...). */
  secrets: readonly string[];
}

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export function deliveryError(
  ctx: HttpContext,
  detail: string,
  options: { permanent: boolean; retryAfterMs?: number },
): DeliveryError {
  return new DeliveryError(redact(`${ctx.channel}: ${detail}`, ctx.secrets), options);
}

/** Sends one request; network failures and timeouts become retryable DeliveryErrors. Never throws others. */
export async function send(url: string, init: RequestInit, ctx: HttpContext): Promise<HttpReply> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(ctx.timeoutMs) });
    text = await response.text();
  } catch (err) {
    const name = err instanceof Error ? err.name : "Error";
    const reason =
      name === "TimeoutError" || name === "AbortError"
        ? `no answer within ${ctx.timeoutMs} ms`
        : `network error (${err instanceof Error ? err.message : String(err)})`;
    // The URL is never put in the message; the reason is redacted in case the runtime quoted it.
    throw deliveryError(ctx, reason, { permanent: false });
  }
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Parses a Retry-After header: delay in seconds or an HTTP date. */
export function retryAfterHeaderMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Seconds (possibly fractional) from a JSON field to whole milliseconds; undefined when not a number. */
export function secondsToMs(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.ceil(value * 1000) : undefined;
}

/**
 * Throws the DeliveryError a non-2xx status deserves: 429 and 408 and 5xx retry, any other status is
 * permanent (4xx: the request itself is wrong; 3xx: we never follow redirects with a secret in them).
 */
export function failUnlessOk(ctx: HttpContext, reply: HttpReply, detail: string, retryAfterMs?: number): void {
  const { status } = reply;
  if (status >= 200 && status < 300) return;
  const what = `HTTP ${status}${detail === "" ? "" : `: ${detail}`}`;
  if (status === 429) {
    throw deliveryError(ctx, what, {
      permanent: false,
      retryAfterMs: retryAfterMs ?? retryAfterHeaderMs(reply.headers),
    });
  }
  if (status === 408 || status >= 500) throw deliveryError(ctx, what, { permanent: false });
  throw deliveryError(ctx, what, { permanent: true });
}

/**
 * A short, single-line excerpt of a reply for error messages. Redacted whole before it is cut: a secret the
 * cut would split is no longer recognisable afterwards.
 */
export function excerpt(ctx: Pick<HttpContext, "secrets">, text: string, max = 200): string {
  const line = redact(text, ctx.secrets).replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}
