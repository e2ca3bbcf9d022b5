/**
 * Reads a report body under two caps: raw bytes as they arrive (maxEncodedBytes, counted by the
 * capped reader in capped-body.ts) and bytes coming out of the decoder (maxDecodedBytes). A compressed
 * body is read whole first (it is at most maxEncodedBytes), then decoded in one call that stops the moment
 * its output would pass maxDecodedBytes (or 16 times the body's size, the lower), so a compression bomb costs
 * at most about the cap: a few ms, ~30 ms for a brotli bomb declaring a 16 MiB window (brotli fills its window
 * before it writes anything out). One call instead of a DecompressionStream, whose chunks each cost promises
 * and turns of the event loop: the slowest of 100 back-to-back reports went from ~10 to ~7 ms (docs/benchmarks-history.md,
 * issue 11, seventh step).
 *
 * Decisions:
 * - Codings: gzip / x-gzip, br, zstd / zstandard, deflate (zlib-wrapped, as HTTP defines it),
 *   identity. Stacked codings (`gzip, br`) are refused with 400: no capture tool sends them.
 * - A body whose first non-whitespace byte is `{` or `[` and that fails to decode, or comes
 *   with an unknown coding, is accepted as identity (some tools send a wrong header);
 *   `ignoredEncoding` then names the header value that was ignored. Otherwise an unknown coding
 *   is refused with 400 naming it.
 * - An empty body is refused with 400.
 * - A body that decodes past 256 KiB and to more than 16 times its size as sent is refused with 413
 *   before anyone parses it: real reports carry encrypted (incompressible) saves, and parsing dense
 *   JSON costs the event loop about 15 ms per MiB, so 18 KB of gzip must not buy 4 MiB of it.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { RawSource, cappedMessage, readToEnd, type BodyFlow, type BodyRefusal } from "./capped-body.ts";

export type BodyResult =
  | { ok: true; bytes: Uint8Array; encoding: string; ignoredEncoding?: string }
  | { ok: false; status: BodyRefusal["status"] | 400; reason: string; retryAfterSeconds?: number };

export interface ReadBodyOptions {
  contentEncoding: string | null;
  maxEncodedBytes: number;
  maxDecodedBytes: number;
  /** The gate the body's bytes (and the decoder's output) pass, and the pace it must keep. */
  flow?: BodyFlow;
}

type CodingName = "gzip" | "br" | "zstd" | "deflate";

export type Coding =
  | { kind: "identity" }
  | { kind: "decode"; name: CodingName }
  | { kind: "unsupported"; label: string; reason: string };

const KNOWN: Record<string, CodingName> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  br: "br",
  zstd: "zstd",
  zstandard: "zstd",
  deflate: "deflate",
};

const DISPLAY: Record<CodingName, string> = { gzip: "gzip", br: "brotli", zstd: "zstd", deflate: "deflate" };

const MAX_ECHO = 40;
const RATIO_FREE_BYTES = 256 * 1024;
const MAX_RATIO = 16;

/** Header values are echoed in errors: printable ASCII only, and short. */
function echo(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > MAX_ECHO ? `${clean.slice(0, MAX_ECHO)}...` : clean;
}

export function parseContentEncoding(header: string | null): Coding {
  const codings = (header ?? "")
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "" && part !== "identity");
  if (codings.length === 0) return { kind: "identity" };
  const label = echo(codings.join(", "));
  if (codings.length > 1) {
    return { kind: "unsupported", label, reason: `stacked Content-Encodings are not supported: ${label}` };
  }
  const name = KNOWN[codings[0] ?? ""];
  if (name === undefined) return { kind: "unsupported", label, reason: `unsupported Content-Encoding: ${label}` };
  return { kind: "decode", name };
}

function fail(status: 400 | 413, reason: string): BodyResult {
  return { ok: false, status, reason };
}

/** The gate's or the pace's refusal, or else `otherwise` (a cap was passed). */
function refusedOr(src: RawSource, otherwise: () => BodyResult): BodyResult {
  return src.refusal === null ? otherwise() : { ok: false, ...src.refusal };
}

export async function readReportBody(
  body: ReadableStream<Uint8Array> | null,
  opts: ReadBodyOptions,
): Promise<BodyResult> {
  const coding = parseContentEncoding(opts.contentEncoding);
  let src: RawSource | null = null;
  try {
    // Without a coding the bytes as sent are the decoded bytes: both caps bound the one count.
    const rawCap = coding.kind === "identity" ? Math.min(opts.maxEncodedBytes, opts.maxDecodedBytes) : opts.maxEncodedBytes;
    src = new RawSource(body, rawCap, coding.kind !== "identity", opts.flow);
    const result =
      coding.kind === "identity"
        ? await readIdentity(src, opts)
        : coding.kind === "decode"
          ? await readDecoded(src, coding, opts)
          : await readUnsupported(src, coding, opts);
    if (result.ok && src.encoded === 0) return fail(400, "report body is empty");
    return result;
  } catch {
    src?.cancel();
    return fail(400, "report body could not be read");
  }
}

function encodedTooLarge(opts: ReadBodyOptions): BodyResult {
  return fail(413, cappedMessage("report body", opts.maxEncodedBytes));
}

function decodedTooLarge(opts: ReadBodyOptions): BodyResult {
  return fail(413, cappedMessage("decompressed report body", opts.maxDecodedBytes));
}

/** An uncompressed body is also held to the decoded cap: it is what the caller parses. */
function plainTooLarge(opts: ReadBodyOptions): BodyResult {
  return fail(413, cappedMessage("report body", opts.maxDecodedBytes));
}

async function readIdentity(src: RawSource, opts: ReadBodyOptions): Promise<BodyResult> {
  const bytes = await readToEnd(src);
  if (bytes === null) return refusedOr(src, () => (src.encoded > opts.maxEncodedBytes ? encodedTooLarge(opts) : plainTooLarge(opts)));
  return { ok: true, bytes, encoding: "identity" };
}

/** The rest of the body as plain JSON, when it looks like JSON; null when it does not. */
async function readAsPlainJson(src: RawSource, opts: ReadBodyOptions): Promise<BodyResult | null> {
  while (src.verdict !== "not-json") {
    if (src.encoded > opts.maxDecodedBytes) {
      src.cancel();
      return plainTooLarge(opts);
    }
    if ((await src.next()) === null) break;
  }
  if (src.refusal !== null) return refusedOr(src, () => encodedTooLarge(opts));
  if (src.overflow) return encodedTooLarge(opts);
  if (src.encoded > opts.maxDecodedBytes) return plainTooLarge(opts);
  if (src.verdict !== "json") {
    src.cancel();
    return null;
  }
  return { ok: true, bytes: src.takeRetained(), encoding: "identity" };
}

/** A body its Content-Encoding does not fit: plain JSON as it is (naming the coding ignored), anything else 400. */
async function plainOrRefused(src: RawSource, opts: ReadBodyOptions, ignored: string, reason: string): Promise<BodyResult> {
  const plain = await readAsPlainJson(src, opts);
  if (plain === null) return fail(400, reason);
  return plain.ok ? { ...plain, ignoredEncoding: ignored } : plain;
}

function readUnsupported(src: RawSource, coding: Extract<Coding, { kind: "unsupported" }>, opts: ReadBodyOptions): Promise<BodyResult> {
  return plainOrRefused(src, opts, coding.label, coding.reason);
}

/** The decoded bytes, and how many input bytes the decoder used (`info: true`). */
interface Decoded {
  buffer: Uint8Array;
  engine: { bytesWritten: number };
}

/** Each decodes a whole body in one call, and throws a RangeError (ERR_BUFFER_TOO_LARGE) once its output would pass the max. */
const DECODE = { gzip: gunzipSync, br: brotliDecompressSync, zstd: zstdDecompressSync, deflate: inflateSync } as unknown as Record<
  CodingName,
  (raw: Uint8Array, options: { maxOutputLength: number; info: true; chunkSize?: number }) => Decoded
>;

/** zlib's smallest output chunk. */
const MIN_CHUNK = 64;

/**
 * The output buffer's first size: gzip's trailer states the decoded size (mod 2^32), so an honest body decodes
 * into one buffer instead of 16 KiB pieces joined after (~0.1 ms and up to ~50 fresh pages less on a 300 KB report).
 * Only a hint: it never passes the output cap, whose room is already held, and the cap still stops the decoder.
 */
function firstChunkSize(name: CodingName, raw: Uint8Array, maxOutputLength: number): number | undefined {
  if (name !== "gzip" || raw.byteLength < 4) return undefined;
  const stated = new DataView(raw.buffer, raw.byteOffset + raw.byteLength - 4, 4).getUint32(0, true);
  return Math.max(MIN_CHUNK, Math.min(maxOutputLength, stated + 1));
}

function passedOutputCap(error: unknown): boolean {
  return error instanceof RangeError && (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
}

async function readDecoded(src: RawSource, coding: Extract<Coding, { kind: "decode" }>, opts: ReadBodyOptions): Promise<BodyResult> {
  const raw = await readToEnd(src);
  if (raw === null) return refusedOr(src, () => encodedTooLarge(opts));
  const invalid = `body is not valid ${DISPLAY[coding.name]}`;
  if (raw.length === 0) return fail(400, invalid);
  // Decoding stops at the lower bound: past its first 256 KiB, a bomb gets 16 times its own size at most.
  const maxOutputLength = Math.min(opts.maxDecodedBytes, Math.max(RATIO_FREE_BYTES, MAX_RATIO * raw.length));
  // Room for the worst case is held before the decoder runs; what it did not write is given back at once.
  if ((await src.admit(maxOutputLength)) !== null) return refusedOr(src, () => encodedTooLarge(opts));
  let decoded: Decoded;
  try {
    decoded = DECODE[coding.name](raw, { maxOutputLength, info: true, chunkSize: firstChunkSize(coding.name, raw, maxOutputLength) });
    // The trailer's size is the client's word: a lying one leaves a large buffer behind a small output, which
    // stays counted (what the decoder allocated, not what it wrote) until the request ends.
    src.giveBack(maxOutputLength - Math.min(maxOutputLength, decoded.buffer.buffer.byteLength));
  } catch (error) {
    if (!passedOutputCap(error)) return plainOrRefused(src, opts, coding.name, invalid);
    if (maxOutputLength === opts.maxDecodedBytes) return decodedTooLarge(opts);
    return fail(413, `decompressed report body is more than ${MAX_RATIO} times its size as sent`);
  }
  // Bytes after the end of the compressed data: not a body any capture tool sends.
  if (decoded.engine.bytesWritten !== raw.length) return fail(400, invalid);

  return { ok: true, bytes: decoded.buffer, encoding: coding.name };
}
