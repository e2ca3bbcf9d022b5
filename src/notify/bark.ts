/**
 * Bark (iOS push): one notification a refresh: the title, the names of the sites its map shows, the finds as its
 * text, the overview inline (`image`, when it has a public URL) and the player's page on a tap (`url`: the site
 * maps are there). One a refresh, not one per map: six a refresh buried the finds.
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

const OVERVIEW_FILE = "overview.png";

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
  // The overview, else (a watched push carries its sites' maps alone) the first map with a URL.
  const withUrl = message.images.filter((image) => image.url !== null);
  const map = withUrl.find((image) => image.name === OVERVIEW_FILE) ?? withUrl[0];
  const payload = {
    ...common,
    title: message.title,
    // The sites the sent map shows, named as on the map; none when no map is sent.
    ...(map?.sites && map.sites.length > 0 ? { subtitle: map.sites.join(" · ") } : {}),
    body: truncateText(summary, BARK_BODY_LIMIT),
    ...(map ? { image: map.url! } : {}),
    ...(message.pageUrl !== null || map ? { url: message.pageUrl ?? map!.url! } : {}),
  };
  await sendParts([() => push(endpoint, ctx, payload)], progress);
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
