/**
 * Bark (iOS push): one notification with the title and rare-resource summary, then one per map image
 * that has a public URL (Bark shows `image` inline and opens `url` on tap).
 *
 * Uses bark-server's V2 form, `POST {server}/push` with `device_key` in the JSON body, which both the
 * public https://api.day.app and self-hosted bark-server accept. Keeping the key out of the URL keeps it
 * out of access logs and needs no escaping (keys may contain "/" or "?").
 */
import { sendParts, truncateText, type PartProgress, type PushMessage } from "./message.ts";
import { deliveryError, excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

/** Settings shared by every Bark device; the device keys come from bark_map.json. */
export interface BarkConfig {
  /** https://api.day.app or a self-hosted bark-server; may carry a path prefix (https://host/bark). */
  server: string;
  /** Icon URL shown with the notification (iOS 15+). */
  icon: string | null;
  /** Notification group in the Bark history. */
  group: string | null;
  timeoutMs: number;
}

/** APNs payloads are capped at 4 KB; 1000 UTF-16 units stays under it even for CJK text. */
export const BARK_BODY_LIMIT = 1000;

export async function sendBark(message: PushMessage, bark: BarkConfig, deviceKey: string, progress?: PartProgress): Promise<void> {
  const ctx: HttpContext = { channel: "bark", timeoutMs: bark.timeoutMs, secrets: [deviceKey] };
  const endpoint = `${bark.server.replace(/\/+$/, "")}/push`;
  const common = {
    device_key: deviceKey,
    ...(bark.icon ? { icon: bark.icon } : {}),
    ...(bark.group ? { group: bark.group } : {}),
  };
  const summary = message.summaryText.trim() === "" ? message.title : message.summaryText.trim();
  const parts = [() => push(endpoint, ctx, { ...common, title: message.title, body: truncateText(summary, BARK_BODY_LIMIT) })];
  for (const { name, url } of message.images) {
    if (url) parts.push(() => push(endpoint, ctx, { ...common, title: message.title, body: name, image: url, url }));
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
  const detail = typeof body.message === "string" ? body.message : excerpt(ctx, reply.text);
  failUnlessOk(ctx, reply, detail);
  if (body.code === 200) return;
  // bark-server reports some failures as HTTP 200 with {"code": 4xx/5xx}; classify by that code.
  const code = typeof body.code === "number" ? body.code : 0;
  const permanent = code >= 400 && code < 500 && code !== 429;
  throw deliveryError(ctx, `code ${code || "missing"}: ${detail}`, { permanent });
}
