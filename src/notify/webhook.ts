/**
 * Generic webhook: one JSON POST per save. With a secret, `X-Signature-256: sha256=<hex>` carries the
 * HMAC-SHA256 of the exact body bytes (GitHub's convention), so receivers can verify before parsing.
 */
import type { PushMessage } from "./message.ts";
import { DEFAULT_TIMEOUT_MS, excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

export interface WebhookOptions {
  url: string;
  secret?: string;
  timeoutMs?: number;
}

export const WEBHOOK_EVENT = "mysekai.save";

export function webhookBody(message: PushMessage): string {
  return JSON.stringify({
    event: WEBHOOK_EVENT,
    playerId: message.playerId,
    saveId: message.saveId,
    capturedAt: message.capturedAt.toISOString(),
    summary: message.summary,
    rareText: message.summaryText,
    images: message.images.map((image) => ({ name: image.name, url: image.url })),
  });
}

export function signature(secret: string, body: Uint8Array): string {
  return `sha256=${new Bun.CryptoHasher("sha256", secret).update(body).digest("hex")}`;
}

export async function sendWebhook(message: PushMessage, options: WebhookOptions): Promise<void> {
  const ctx: HttpContext = {
    channel: "webhook",
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // The whole URL counts as secret: webhook URLs often carry a token in the path or query.
    secrets: [options.url, ...(options.secret ? [options.secret] : [])],
  };
  const bytes = new TextEncoder().encode(webhookBody(message));
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (options.secret) headers["x-signature-256"] = signature(options.secret, bytes);
  const reply = await send(options.url, { method: "POST", headers, body: bytes }, ctx);
  failUnlessOk(ctx, reply, excerpt(reply.text));
}
