/**
 * The one capped body reader. `RawSource` is the only place that counts a request body's bytes as they
 * arrive and stops at a cap; uploads read through `readCapped`, reports through `readReportBody`
 * (decompress.ts), which adds the decoded cap on top.
 *
 * For reports it also notes whether the body looks like plain JSON (first non-whitespace byte `{` or
 * `[`, no raw control bytes). While that is possible and `retain` is set, it keeps the raw chunks so a
 * body with a wrong Content-Encoding can still be accepted as identity; once ruled out, it keeps nothing.
 */
export type PlainVerdict = "undecided" | "json" | "not-json";

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** The part of a stream reader used here (bun-types and lib.dom disagree on the full type). */
interface ByteReader {
  read(): Promise<{ done: boolean; value?: unknown }>;
  cancel(reason?: unknown): Promise<void>;
}

function hasControlByte(chunk: Uint8Array): boolean {
  for (const byte of chunk) {
    if (byte < 0x20 && !isJsonWhitespace(byte)) return true;
  }
  return false;
}

export class RawSource {
  encoded = 0;
  overflow = false;
  verdict: PlainVerdict = "undecided";
  private readonly reader: ByteReader | null;
  private retained: Uint8Array[] | null;
  private cancelled = false;

  constructor(
    body: ReadableStream<Uint8Array> | null,
    private readonly cap: number,
    retain: boolean,
  ) {
    this.reader = body === null ? null : body.getReader();
    this.retained = retain ? [] : null;
  }

  /** The next non-empty chunk, or null at the end, after cancel, or once the cap is passed. */
  async next(): Promise<Uint8Array | null> {
    if (this.reader === null || this.cancelled) return null;
    for (;;) {
      const step = await this.reader.read();
      if (step.done) return null;
      const chunk = step.value;
      if (!(chunk instanceof Uint8Array)) throw new TypeError("body chunk is not bytes");
      if (chunk.length === 0) continue;
      this.encoded += chunk.length;
      if (this.encoded > this.cap) {
        this.overflow = true;
        this.retained = null;
        this.cancel();
        return null;
      }
      this.classify(chunk);
      return chunk;
    }
  }

  /** Stops reading the body; safe to call more than once. */
  cancel(): void {
    if (this.cancelled || this.reader === null) return;
    this.cancelled = true;
    this.reader.cancel().catch(() => {});
  }

  /** The raw bytes read so far, as one array (only meaningful while verdict is "json"). */
  takeRetained(): Uint8Array {
    const chunks = this.retained ?? [];
    this.retained = null;
    return concatChunks(chunks, chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  }

  private classify(chunk: Uint8Array): void {
    if (this.verdict === "undecided") {
      const first = chunk.findIndex((byte) => !isJsonWhitespace(byte));
      if (first !== -1) {
        const byte = chunk[first];
        this.verdict = byte === OPEN_BRACE || byte === OPEN_BRACKET ? "json" : "not-json";
      }
    }
    // JSON text never holds raw control bytes, while compressed data (a brotli stream may
    // well start with `[`) holds them within a few bytes: one cheap pass tells them apart.
    if (this.verdict === "json" && this.retained !== null && hasControlByte(chunk)) this.verdict = "not-json";
    if (this.verdict === "not-json") this.retained = null;
    else this.retained?.push(chunk);
  }
}

/** The rest of `src` as one array, or null once it passed its cap (reading stops there). */
export async function readToEnd(src: RawSource): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  for (let chunk = await src.next(); chunk !== null; chunk = await src.next()) chunks.push(chunk);
  if (src.overflow) return null;
  return concatChunks(chunks, chunks.reduce((sum, chunk) => sum + chunk.length, 0));
}

/** The whole body as sent, or null when it is larger than `maxBytes`. */
export function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  return readToEnd(new RawSource(body, maxBytes, false));
}

/** True when a declared Content-Length already exceeds the limit (so the body need not be read at all). */
export function declaredTooLarge(contentLength: string | undefined | null, maxBytes: number): boolean {
  if (!contentLength) return false;
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > maxBytes;
}

/** Joins chunks into one standalone array of exactly `total` bytes. */
function concatChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const only = chunks[0];
  if (chunks.length === 1 && only !== undefined && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) {
    return only;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export function cappedMessage(what: string, cap: number): string {
  return `${what} exceeds ${cap} bytes`;
}
