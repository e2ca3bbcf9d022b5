/**
 * What kind of failure a reason names, the one classifier of the pipeline's and the channels' failure texts
 * (src/save/open.ts INVALID_REASONS, src/save/positional.ts, src/notify/http.ts …): the owner's pages and the
 * first-run wizard show the kind in the reader's language (the raw text behind a toggle), a player's capture health
 * the few kinds a player can act on.
 */
import type { Messages } from "./i18n/messages/index.ts";

export type ErrorKind = keyof Messages["errorKinds"];

/** First match wins. */
const KINDS: [ErrorKind, RegExp][] = [
  ["noKey", /no AES key/i],
  ["decrypt", /does not decrypt|no candidate decrypts|bad padding|not a multiple of 16|not valid base64|cannot be a save|implausible/i],
  ["notSave", /not MessagePack|not a MySekai save|__proto__|empty body|junk/i],
  ["tooLarge", /\(limit \d|too large|past the cap|over the cap|over the save limits/i],
  ["unreadable", /cannot be read/i],
  ["notConfigured", /not configured|not in bark_map\.json/i],
  ["timeout", /no answer within|timed out|timeout/i],
  ["network", /network error|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|socket/i],
  // 429 is "busy, later" (below), not a refusal.
  ["rejected", /HTTP 4(?!29)\d\d|code 4(?!29)\d\d/i],
  ["busy", /HTTP (5\d\d|429)|code (5\d\d|429)/i],
  ["storage", /missing from the archive|is missing|archive|bucket|database|store/i],
];

export function errorKind(raw: string): ErrorKind {
  return KINDS.find(([, pattern]) => pattern.test(raw))?.[0] ?? "other";
}

/** What a player can act on of a failed capture: the key is wrong, the body is not a save, the game's records changed. */
export type CaptureFailureKind = "wrongKey" | "junk" | "harvest" | "other";

const CAPTURE_KINDS: Partial<Record<ErrorKind, CaptureFailureKind>> = { decrypt: "wrongKey", notSave: "junk", unreadable: "harvest" };

export const captureFailureKind = (reason: string): CaptureFailureKind => CAPTURE_KINDS[errorKind(reason)] ?? "other";
