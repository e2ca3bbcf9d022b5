/**
 * Discord webhook: multipart `payload_json` (content + attachments) with the PNGs as `files[n]`,
 * at most 10 files per message; the text goes with the first message only.
 */
import { balancedChunks, fullText, truncateText, type PushMessage, sendParts, type PartProgress } from "./message.ts";
import { excerpt, failUnlessOk, secondsToMs, send, type HttpContext } from "./http.ts";

export interface DiscordConfig {
  /** https://discord.com/api/webhooks/<id>/<token>: a secret as a whole. */
  webhookUrl: string;
  timeoutMs: number;
}

export const DISCORD_CONTENT_LIMIT = 2000;
export const DISCORD_FILE_LIMIT = 10;

export async function sendDiscord(message: PushMessage, discord: DiscordConfig, progress?: PartProgress): Promise<void> {
  const ctx: HttpContext = { channel: "discord", timeoutMs: discord.timeoutMs, secrets: [discord.webhookUrl] };
  const content = truncateText(fullText(message), DISCORD_CONTENT_LIMIT);
  const batches = balancedChunks(message.images, DISCORD_FILE_LIMIT);
  if (batches.length === 0) batches.push([]);
  const parts = batches.map((batch, index) => () => {
    const form = new FormData();
    const payload = {
      ...(index === 0 ? { content } : {}),
      // A name in the text (a catalogue update's, a player's) never pings a channel.
      allowed_mentions: { parse: [] },
      attachments: batch.map((image, i) => ({ id: i, filename: image.name })),
    };
    form.append("payload_json", JSON.stringify(payload));
    batch.forEach((image, i) => {
      form.append(`files[${i}]`, new Blob([image.png as Uint8Array<ArrayBuffer>], { type: "image/png" }), image.name);
    });
    return post(discord.webhookUrl, form, ctx);
  });
  await sendParts(parts, progress);
}

async function post(webhookUrl: string, form: FormData, ctx: HttpContext): Promise<void> {
  // wait=true makes Discord validate the message before answering, so errors reach us.
  const url = webhookUrl.includes("?") ? `${webhookUrl}&wait=true` : `${webhookUrl}?wait=true`;
  const reply = await send(url, { method: "POST", body: form }, ctx);
  const body = (typeof reply.json === "object" && reply.json !== null ? reply.json : {}) as {
    message?: unknown;
    retry_after?: unknown;
  };
  const detail = typeof body.message === "string" ? body.message : excerpt(ctx, reply.text);
  failUnlessOk(ctx, reply, detail, secondsToMs(body.retry_after));
}
