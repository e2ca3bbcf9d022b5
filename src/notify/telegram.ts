/**
 * Telegram Bot API: the maps as photo albums (sendMediaGroup, 2–10 photos each; sendPhoto for a lone
 * photo), the summary as the caption of the first photo, or as a separate sendMessage when it does not fit.
 */
import { balancedChunks, fullText, sendParts, truncateText, type PartProgress, type PushImage, type PushMessage } from "./message.ts";
import { deliveryError, excerpt, failUnlessOk, secondsToMs, send, type HttpContext } from "./http.ts";

export interface TelegramConfig {
  /** https://api.telegram.org, or a self-hosted Bot API server. */
  apiBase: string;
  botToken: string;
  /** Numeric chat id (`-100…` for channels) or `@channelusername`. */
  chatId: string;
  timeoutMs: number;
}

export const TELEGRAM_CAPTION_LIMIT = 1024;
export const TELEGRAM_TEXT_LIMIT = 4096;
export const TELEGRAM_ALBUM_LIMIT = 10;

interface TelegramCall {
  ctx: HttpContext;
  base: string;
  chatId: string;
}

export async function sendTelegram(message: PushMessage, telegram: TelegramConfig, progress?: PartProgress): Promise<void> {
  const call: TelegramCall = {
    ctx: { channel: "telegram", timeoutMs: telegram.timeoutMs, secrets: [telegram.botToken] },
    base: `${telegram.apiBase.replace(/\/+$/, "")}/bot${telegram.botToken}`,
    chatId: telegram.chatId,
  };
  const text = fullText(message);
  if (message.images.length === 0) {
    await sendParts([() => sendText(call, text)], progress);
    return;
  }
  const captionFits = text.length <= TELEGRAM_CAPTION_LIMIT;
  const caption = captionFits ? text : truncateText(message.title, TELEGRAM_CAPTION_LIMIT);
  const albums = balancedChunks(message.images, TELEGRAM_ALBUM_LIMIT);
  const parts = albums.map((album, i) => () => sendAlbum(call, album, i === 0 ? caption : undefined));
  if (!captionFits) parts.push(() => sendText(call, text));
  await sendParts(parts, progress);
}

async function sendText(call: TelegramCall, text: string): Promise<void> {
  const body = JSON.stringify({
    chat_id: call.chatId,
    text: truncateText(text, TELEGRAM_TEXT_LIMIT),
    disable_web_page_preview: true,
  });
  await callMethod(call, "sendMessage", { method: "POST", headers: { "content-type": "application/json" }, body });
}

function pngBlob(image: PushImage): Blob {
  return new Blob([image.png as Uint8Array<ArrayBuffer>], { type: "image/png" });
}

async function sendAlbum(call: TelegramCall, album: PushImage[], caption: string | undefined): Promise<void> {
  const form = new FormData();
  form.append("chat_id", call.chatId);
  const [only] = album;
  if (album.length === 1 && only !== undefined) {
    // sendMediaGroup rejects a single item, so a lone photo goes through sendPhoto.
    form.append("photo", pngBlob(only), only.name);
    if (caption !== undefined) form.append("caption", caption);
    await callMethod(call, "sendPhoto", { method: "POST", body: form });
    return;
  }
  const media = album.map((image, i) => ({
    type: "photo",
    media: `attach://file${i}`,
    ...(i === 0 && caption !== undefined ? { caption } : {}),
  }));
  form.append("media", JSON.stringify(media));
  album.forEach((image, i) => form.append(`file${i}`, pngBlob(image), image.name));
  await callMethod(call, "sendMediaGroup", { method: "POST", body: form });
}

interface TelegramReply {
  ok?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

async function callMethod(call: TelegramCall, method: string, init: RequestInit): Promise<void> {
  const reply = await send(`${call.base}/${method}`, init, call.ctx);
  const body = (typeof reply.json === "object" && reply.json !== null ? reply.json : {}) as TelegramReply;
  const description = typeof body.description === "string" ? body.description : excerpt(call.ctx, reply.text);
  failUnlessOk(call.ctx, reply, `${method}: ${description}`, secondsToMs(body.parameters?.retry_after));
  if (body.ok !== true) {
    // 2xx without {"ok": true}: a proxy or captive page answered; the message may not have gone out.
    throw deliveryError(call.ctx, `${method}: unexpected answer (${excerpt(call.ctx, reply.text)})`, { permanent: false });
  }
}
