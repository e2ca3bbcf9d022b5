/**
 * Generic webhook: one JSON POST per save. With a secret, `X-Signature-256: sha256=<hex>` carries the
 * HMAC-SHA256 of the exact body bytes (GitHub's convention), so receivers can verify before parsing.
 */
import type { PushMessage } from "./message.ts";
import { excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

export interface WebhookConfig {
  url: string;
  /** HMAC key for `X-Signature-256`; unsigned when null. */
  secret: string | null;
  timeoutMs: number;
}

export const WEBHOOK_EVENT = "mysekai.save";

export function webhookBody(message: PushMessage): string {
  return JSON.stringify({
    event: WEBHOOK_EVENT,
    playerId: message.playerId,
    saveId: message.saveId,
    capturedAt: message.capturedAt.toISOString(),
    title: message.title,
    summary: message.summary,
    rareText: message.summaryText,
    images: message.images.map((image) => ({ name: image.name, url: image.url })),
  });
}

export function signature(secret: string, body: Uint8Array): string {
  return `sha256=${new Bun.CryptoHasher("sha256", secret).update(body).digest("hex")}`;
}

export async function sendWebhook(message: PushMessage, webhook: WebhookConfig): Promise<void> {
  const ctx: HttpContext = {
    channel: "webhook",
    timeoutMs: webhook.timeoutMs,
    // The whole URL counts as secret: webhook URLs often carry a token in the path or query.
    secrets: [webhook.url, ...(webhook.secret ? [webhook.secret] : [])],
  };
  const bytes = new TextEncoder().encode(webhookBody(message));
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (webhook.secret) headers["x-signature-256"] = signature(webhook.secret, bytes);
  const reply = await send(webhook.url, { method: "POST", headers, body: bytes }, ctx);
  failUnlessOk(ctx, reply, excerpt(ctx, reply.text));
}
