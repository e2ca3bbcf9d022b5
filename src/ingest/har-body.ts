/**
 * Turns a HAR body holder (`response.content` or `request.postData`) back into bytes.
 *
 * - `encoding: "base64"` (any case): base64 as capture tools write it: ASCII whitespace and line
 *   breaks ignored (MIME wraps at 76), padding optional, the standard or the URL-safe alphabet.
 *   Text that is still not base64 is "undecodable": the caller keeps it, never drops it.
 * - Otherwise the text is taken as is: when every char code is <= 0xFF it is one char per
 *   byte (ProxyPin writes binary bodies with String.fromCharCodes), else UTF-8.
 */
export type BodyText =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "empty" }
  | { kind: "absent" }
  | { kind: "undecodable"; text: string; reason: string }
  | { kind: "invalid"; reason: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const BASE64_BODY = /^[A-Za-z0-9+/_-]*$/;

/**
 * Bytes of base64 text in any form capture tools write (see above); null for anything else. A text in one
 * alphabet is decoded as it is: the decoder skips the same whitespace and takes the same padding rules, while the
 * pattern test below costs ~0.4 ms on a save's 280 KB of text (about a tenth of a report's accept).
 */
export function decodeBase64Tolerant(text: string): Uint8Array | null {
  return decodedAs(text, "base64") ?? decodedAs(text, "base64url") ?? decodeMixedAlphabets(text);
}

function decodedAs(text: string, alphabet: "base64" | "base64url"): Uint8Array | null {
  try {
    return Uint8Array.fromBase64(text, { alphabet, lastChunkHandling: "loose" });
  } catch {
    return null;
  }
}

/** Both alphabets in one text, or not base64 at all. */
function decodeMixedAlphabets(text: string): Uint8Array | null {
  const compact = text.replace(/[\t\n\f\r ]+/g, "");
  const body = compact.replace(/={1,2}$/, "");
  // A dangling single char (length % 4 == 1) carries less than one byte: not base64.
  if (!BASE64_BODY.test(body) || body.length % 4 === 1) return null;
  if (compact.length !== body.length && compact.length % 4 !== 0) return null;
  try {
    return Uint8Array.fromBase64(body.replace(/-/g, "+").replace(/_/g, "/"), { lastChunkHandling: "loose" });
  } catch {
    return null;
  }
}

/** One byte per char when the text fits in Latin-1 (binary kept char-per-byte), else UTF-8. */
export function textToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return new TextEncoder().encode(text);
    bytes[i] = code;
  }
  return bytes;
}

export function readBodyText(holder: unknown): BodyText {
  if (holder === undefined || holder === null) return { kind: "absent" };
  if (!isRecord(holder)) return { kind: "invalid", reason: "body holder is not an object" };
  const text = holder.text;
  if (text === undefined || text === null) return { kind: "absent" };
  if (typeof text !== "string") return { kind: "invalid", reason: "body text is not a string" };
  if (text === "") return { kind: "empty" };
  const encoding = holder.encoding;
  if (typeof encoding === "string" && encoding.trim().toLowerCase() === "base64") {
    const bytes = decodeBase64Tolerant(text);
    if (bytes === null) return { kind: "undecodable", text, reason: "body is not valid base64" };
    return bytes.byteLength === 0 ? { kind: "empty" } : { kind: "bytes", bytes };
  }
  return { kind: "bytes", bytes: textToBytes(text) };
}

/** A declared body size (`size`, `bodySize`) as a number; -1 or garbage count as unknown (0). */
export function declaredSize(...values: unknown[]): number {
  let size = 0;
  for (const value of values) {
    if (typeof value === "number" && Number.isFinite(value) && value > size) size = value;
  }
  return size;
}
