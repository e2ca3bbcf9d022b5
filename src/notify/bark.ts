/**
 * Bark (iOS push): one notification with the title and rare-resource summary, then one per map image
 * that can be fetched by URL (Bark shows `image` inline and opens `url` on tap).
 *
 * Uses bark-server's V2 form, `POST {server}/push` with `device_key` in the JSON body, which both the
 * public https://api.day.app and self-hosted bark-server accept. Keeping the key out of the URL keeps it
 * out of access logs and needs no escaping (keys may contain "/" or "?").
 */
import { sendParts, truncateText, type PartProgress, type PushMessage } from "./message.ts";
import { DEFAULT_TIMEOUT_MS, deliveryError, excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

export interface BarkOptions {
  /** Default https://api.day.app; may carry a path prefix (https://host/bark). */
  server?: string;
  deviceKey: string;
  /** Icon URL shown with the notification (iOS 15+). */
  icon?: string;
  /** Notification group in the Bark history. */
  group?: string;
  /** Base that relative image URLs are resolved against (BARK_IMAGE_BASE). */
  imageBase?: string;
  timeoutMs?: number;
}

export const BARK_SERVER = "https://api.day.app";
/** APNs payloads are capped at 4 KB; 1000 UTF-16 units stays under it even for CJK text. */
export const BARK_BODY_LIMIT = 1000;

/** An image's public URL: absolute as given, relative resolved against `imageBase`, else null. */
export function resolveImageUrl(url: string | null, imageBase: string | undefined): string | null {
  if (url === null || url === "") return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (imageBase === undefined || imageBase === "") return null;
  const base = imageBase.endsWith("/") ? imageBase : `${imageBase}/`;
  try {
    return new URL(url.replace(/^\/+/, ""), base).toString();
  } catch {
    return null;
  }
}

export async function sendBark(message: PushMessage, options: BarkOptions, progress?: PartProgress): Promise<void> {
  const ctx: HttpContext = {
    channel: "bark",
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    secrets: [options.deviceKey],
  };
  const endpoint = `${(options.server ?? BARK_SERVER).replace(/\/+$/, "")}/push`;
  const common = {
    device_key: options.deviceKey,
    ...(options.icon ? { icon: options.icon } : {}),
    ...(options.group ? { group: options.group } : {}),
  };
  const summary = message.summaryText.trim() === "" ? message.title : message.summaryText.trim();
  const parts = [() => push(endpoint, ctx, { ...common, title: message.title, body: truncateText(summary, BARK_BODY_LIMIT) })];
  for (const image of message.images) {
    const url = resolveImageUrl(image.url, options.imageBase);
    if (url !== null) parts.push(() => push(endpoint, ctx, { ...common, title: message.title, body: image.name, image: url, url }));
  }
  await sendParts(parts, progress);
}

async function push(endpoint: string, ctx: HttpContext, payload: Record<string, string>): Promise<void> {
  const reply = await send(
    endpoint,
    { method: "POST", headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(payload) },
    ctx,
  );
  const body = (typeof reply.json === "object" && reply.json !== null ? reply.json : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const detail = typeof body.message === "string" ? body.message : excerpt(reply.text);
  failUnlessOk(ctx, reply, detail);
  if (body.code === 200) return;
  // bark-server reports some failures as HTTP 200 with {"code": 4xx/5xx}; classify by that code.
  const code = typeof body.code === "number" ? body.code : 0;
  const permanent = code >= 400 && code < 500 && code !== 429;
  throw deliveryError(ctx, `code ${code || "missing"}: ${detail}`, { permanent });
}
