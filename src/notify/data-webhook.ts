/**
 * Consumer webhooks, the largest hub's convention: a POST to a URL with `{server}`, `{data_type}` and
 * `{user_id}` filled in, optionally with `Authorization: Bearer <secret>`. Empty by default (the bot then pulls
 * the save from the data API), or carrying the save as the hub's sync does: the encrypted body as received
 * (`raw`) or its JSON compressed with zstd (`json-zstd`), named by X-Haruki-Upload-Data-Format. With a check
 * URL, a GET there first (same Bearer) decides: 200 sends, 404 means the receiver does not know the player and
 * nothing is sent, anything else is retried. The URLs and the secret are never put in a message.
 */
import { zstdCompressSync } from "node:zlib";
import { deliveryError, excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";
import { DATA_WEBHOOK_CHANNEL, type DataWebhook } from "../store/model/deliveries.ts";

export const DATA_TYPE = "mysekai";

export interface DataWebhookEvent {
  server: string;
  userId: string;
  /** What is new: the save (default) or a birthday party's delivery, each read at its own data API route. */
  dataType?: string;
}

export const PLACEHOLDERS = ["{server}", "{data_type}", "{user_id}"] as const;

export function dataWebhookUrl(template: string, event: DataWebhookEvent): string {
  return template
    .replaceAll("{server}", encodeURIComponent(event.server))
    .replaceAll("{data_type}", event.dataType ?? DATA_TYPE)
    .replaceAll("{user_id}", encodeURIComponent(event.userId));
}

/** Why `template` cannot be a consumer webhook (the CLI words it), or null when it can (http or https once filled in). */
export function dataWebhookProblem(template: string): "not_url" | "not_http" | "no_placeholder" | null {
  let url: URL;
  try {
    url = new URL(dataWebhookUrl(template, { server: "jp", userId: "1" }));
  } catch {
    return "not_url";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "not_http";
  if (!PLACEHOLDERS.some((p) => template.includes(p))) return "no_placeholder";
  return null;
}

/** Where a webhook goes, without what may be secret in it (its path and query): for lists. */
export function dataWebhookOrigin(template: string): string {
  try {
    return new URL(template.replace(/[{}]/g, "")).origin;
  } catch {
    return "(not a URL)";
  }
}

/** Whether `template` carries a user name or password (which fetch sends as Basic auth). */
export function hasUserinfo(template: string): boolean {
  try {
    const url = new URL(template.replace(/[{}]/g, ""));
    return url.username !== "" || url.password !== "";
  } catch {
    return false;
  }
}

/** The save as a push may carry it, read only when a hook asks for it. */
export interface SaveBodies {
  /** The encrypted body as received. */
  encrypted(): Promise<Uint8Array>;
  /** The decrypted save as JSON text. */
  json(): Promise<Uint8Array>;
}

export const DATA_FORMAT_HEADER = "X-Haruki-Upload-Data-Format";

type Hook = Pick<DataWebhook, "url" | "bearer" | "payload" | "checkUrl">;

export async function sendDataWebhook(hook: Hook, event: DataWebhookEvent, timeoutMs: number, bodies: SaveBodies): Promise<void> {
  const url = dataWebhookUrl(hook.url, event);
  const check = hook.checkUrl === null ? null : dataWebhookUrl(hook.checkUrl, event);
  const secrets = [hook.url, url, ...(hook.checkUrl === null ? [] : [hook.checkUrl, check!]), ...(hook.bearer ? [hook.bearer] : [])];
  const ctx: HttpContext = { channel: DATA_WEBHOOK_CHANNEL, timeoutMs, secrets };
  const headers: Record<string, string> = {};
  if (hook.bearer) headers.authorization = `Bearer ${hook.bearer}`;
  if (check !== null) {
    const known = await send(check, { method: "GET", headers }, ctx);
    if (known.status === 404) throw deliveryError(ctx, "the check URL answered 404 (the receiver does not know this player): not sent", { permanent: true });
    if (known.status !== 200) throw deliveryError(ctx, `the check URL answered HTTP ${known.status}, not 200 or 404`, { permanent: false });
  }
  let body: Uint8Array | undefined;
  if (hook.payload !== "empty") {
    body = hook.payload === "raw" ? await bodies.encrypted() : zstdCompressSync(await bodies.json());
    headers[DATA_FORMAT_HEADER] = hook.payload;
    headers["content-type"] = "application/octet-stream";
  }
  const reply = await send(url, { method: "POST", headers, body: body as RequestInit["body"] }, ctx);
  failUnlessOk(ctx, reply, excerpt(ctx, reply.text));
}
