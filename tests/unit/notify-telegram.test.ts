import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { sendTelegram, TELEGRAM_CAPTION_LIMIT, TELEGRAM_TEXT_LIMIT } from "../../src/notify/telegram.ts";
import { refusedUrl, startRecordingServer } from "../helpers/recording-server.ts";
import { deliveryFailure, fakePng, fileBytes, images, message } from "./notify-fixtures.ts";

const token = "123456789:AAH-secret_TokenValue";
const server = await startRecordingServer({ defaultResponse: { body: { ok: true, result: [] } } });
const options = { apiBase: server.url, botToken: token, chatId: "-1001234567890", timeoutMs: 2000 };
const base = `/bot${token}`;

afterAll(() => server.stop());
beforeEach(() => server.reset());

function media(form: FormData | null): { type: string; media: string; caption?: string }[] {
  return JSON.parse(String(form?.get("media")));
}

describe("telegram", () => {
  test("sends one album with the PNGs attached and the summary as the first caption", async () => {
    const msg = message();
    await sendTelegram(msg, options);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${base}/sendMediaGroup`]);
    const form = server.requests[0]?.form ?? null;
    expect(form?.get("chat_id")).toBe("-1001234567890");
    expect(media(form)).toEqual([
      { type: "photo", media: "attach://file0", caption: `${msg.title}\n${msg.summaryText}` },
      { type: "photo", media: "attach://file1" },
      { type: "photo", media: "attach://file2" },
    ]);
    for (let i = 0; i < 3; i++) {
      const file = await fileBytes(form, `file${i}`);
      expect(file.name).toBe(msg.images[i]?.name ?? "");
      expect(file.bytes).toEqual(fakePng(i + 1));
    }
  });

  test("a summary longer than a caption goes out as a message, the album keeps the title", async () => {
    const msg = message({ summaryText: "Crystal ×1\n".repeat(200) });
    await sendTelegram(msg, options);
    expect(server.requests.map((r) => r.path)).toEqual([`${base}/sendMediaGroup`, `${base}/sendMessage`]);
    const caption = media(server.requests[0]?.form ?? null)[0]?.caption ?? "";
    expect(caption).toBe(msg.title);
    expect(caption.length).toBeLessThanOrEqual(TELEGRAM_CAPTION_LIMIT);
    const sent = server.requests[1]?.json as { chat_id: string; text: string };
    expect(sent.chat_id).toBe("-1001234567890");
    expect(sent.text).toBe(`${msg.title}\n${msg.summaryText.trim()}`);
  });

  test("more than ten images are split into balanced albums, caption only on the first", async () => {
    const msg = message({ images: images(12) });
    await sendTelegram(msg, options);
    expect(server.requests.map((r) => r.path)).toEqual([`${base}/sendMediaGroup`, `${base}/sendMediaGroup`]);
    const albums = server.requests.map((r) => media(r.form));
    expect(albums.map((a) => a.length)).toEqual([6, 6]);
    expect(albums.flat().filter((m) => m.caption !== undefined)).toHaveLength(1);
    expect(albums[0]?.[0]?.caption).toContain(msg.title);
    const second = await fileBytes(server.requests[1]?.form ?? null, "file5");
    expect(second.name).toBe("overview.png");
    expect(second.bytes).toEqual(fakePng(12));
  });

  test("a single image goes through sendPhoto", async () => {
    await sendTelegram(message({ images: images(1) }), options);
    expect(server.requests.map((r) => r.path)).toEqual([`${base}/sendPhoto`]);
    const form = server.requests[0]?.form ?? null;
    expect((await fileBytes(form, "photo")).name).toBe("site_1.png");
    expect(String(form?.get("caption"))).toContain("Crystal");
  });

  test("no images: a text message, cut to Telegram's limit", async () => {
    await sendTelegram(message({ images: [], summaryText: "x".repeat(5000) }), options);
    expect(server.requests.map((r) => r.path)).toEqual([`${base}/sendMessage`]);
    const text = (server.requests[0]?.json as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text.endsWith("…")).toBe(true);
  });

  test("429 is retryable with retry_after from the answer", async () => {
    server.respond(`${base}/sendMediaGroup`, {
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } },
    });
    const error = await deliveryFailure(sendTelegram(message(), options), [token]);
    expect(error.permanent).toBe(false);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.message).toContain("429");
  });

  test("500 is retryable, 400 is permanent and quotes Telegram's description", async () => {
    server.respond(`${base}/sendMediaGroup`, { status: 500, body: { ok: false, description: "Internal" } });
    expect((await deliveryFailure(sendTelegram(message(), options), [token])).permanent).toBe(false);
    server.respond(`${base}/sendMediaGroup`, {
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: chat not found" },
    });
    const error = await deliveryFailure(sendTelegram(message(), options), [token]);
    expect(error.permanent).toBe(true);
    expect(error.message).toContain("chat not found");
  });

  test("a 200 answer without ok:true is not taken as delivered", async () => {
    server.respond(`${base}/sendMediaGroup`, { status: 200, body: "<html>proxy</html>" });
    expect((await deliveryFailure(sendTelegram(message(), options), [token])).permanent).toBe(false);
  });

  test("connection refused and timeouts are retryable and never show the token", async () => {
    const refused = await deliveryFailure(sendTelegram(message(), { ...options, apiBase: await refusedUrl() }), [token]);
    expect(refused.permanent).toBe(false);
    server.respond(`${base}/sendMediaGroup`, { delayMs: 1000, body: { ok: true } });
    const slow = await deliveryFailure(sendTelegram(message(), { ...options, timeoutMs: 100 }), [token]);
    expect(slow.permanent).toBe(false);
    expect(slow.message).toContain("100 ms");
  });
});
