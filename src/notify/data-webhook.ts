/**
 * Consumer webhooks, the largest hub's convention: an empty POST to a URL with `{server}`, `{data_type}` and
 * `{user_id}` filled in, optionally with `Authorization: Bearer <secret>`; the bot then pulls the save from the
 * data API. The URL and the secret are never put in a message.
 */
import { DATA_WEBHOOK_CHANNEL } from "../db/deliveries/data-webhooks.ts";
import { excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

export const DATA_TYPE = "mysekai";

export interface DataWebhookEvent {
  server: string;
  userId: string;
  /** What is new: the save (default) or a birthday party's delivery, each read at its own data API route. */
  dataType?: string;
}

const PLACEHOLDERS = ["{server}", "{data_type}", "{user_id}"] as const;

export function dataWebhookUrl(template: string, event: DataWebhookEvent): string {
  return template
    .replaceAll("{server}", encodeURIComponent(event.server))
    .replaceAll("{data_type}", event.dataType ?? DATA_TYPE)
    .replaceAll("{user_id}", encodeURIComponent(event.userId));
}

/** Why `template` cannot be a consumer webhook, or null when it can (http or https once filled in). */
export function dataWebhookProblem(template: string): string | null {
  let url: URL;
  try {
    url = new URL(dataWebhookUrl(template, { server: "jp", userId: "1" }));
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs";
  if (!PLACEHOLDERS.some((p) => template.includes(p))) return `the URL names none of ${PLACEHOLDERS.join(", ")}: the bot would not know whose save is new`;
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

export async function sendDataWebhook(hook: { url: string; bearer: string | null }, event: DataWebhookEvent, timeoutMs: number): Promise<void> {
  const url = dataWebhookUrl(hook.url, event);
  const ctx: HttpContext = { channel: DATA_WEBHOOK_CHANNEL, timeoutMs, secrets: [hook.url, url, ...(hook.bearer ? [hook.bearer] : [])] };
  const headers: Record<string, string> = {};
  if (hook.bearer) headers.authorization = `Bearer ${hook.bearer}`;
  const reply = await send(url, { method: "POST", headers }, ctx);
  failUnlessOk(ctx, reply, excerpt(ctx, reply.text));
}
