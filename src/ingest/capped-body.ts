/**
 * The one capped body reader. `RawSource` is the only place that counts a request body's bytes as they
 * arrive and stops at a cap; uploads read through `readCapped`, reports through `readReportBody`
 * (decompress.ts), which adds the decoded cap on top. It also stops a body that arrives too slowly
 * (`BodyPace`) and admits every chunk through a `BodyGate` (the decode budget) as it arrives, so what a
 * request holds is what it sent, never what its headers declare.
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

/** Why a body was not read to its end (besides its cap): the status and short reason the client gets. */
export interface BodyRefusal {
  status: 408 | 413 | 429 | 503;
  reason: string;
  retryAfterSeconds?: number;
}

/** Admits bytes as they arrive or are decoded (src/http/body-gate.ts); a refusal stops the read. */
export interface BodyGate {
  admit(bytes: number): Promise<BodyRefusal | null>;
  /** Returns part of what was admitted (a decoder's worst case that it did not use). */
  giveBack(bytes: number): void;
}

/** A body must be whole within `deadlineMs`, and every `windowMs` bring `minBytesPerSecond` at least (or end). */
export interface BodyPace {
  deadlineMs: number;
  windowMs: number;
  minBytesPerSecond: number;
}

/** How a body may arrive: through which gate and at what pace (both optional: unit tests read without). */
export interface BodyFlow {
  gate?: BodyGate;
  pace?: BodyPace;
}

export const TOO_SLOW: BodyRefusal = { status: 408, reason: "request body arrived too slowly" };

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
  /** Set when the gate or the pace stopped the read; the client gets its status and reason. */
  refusal: BodyRefusal | null = null;
  private cancelled = false;
  private readonly startedAt = Date.now();
  /** The pace's current window: when it started and the bytes that came in it. */
  private windowStart = this.startedAt;
  private windowBytes = 0;

  constructor(
    body: ReadableStream<Uint8Array> | null,
    private readonly cap: number,
    retain: boolean,
    private readonly flow: BodyFlow = {},
  ) {
    this.reader = body === null ? null : body.getReader();
    this.retained = retain ? [] : null;
  }

  /** The next non-empty chunk, or null at the end, after cancel, once the cap is passed, or on a refusal. */
  async next(): Promise<Uint8Array | null> {
    if (this.reader === null || this.cancelled) return null;
    for (;;) {
      const step = await this.paced(this.reader);
      if (step === null) return this.refuse(TOO_SLOW);
      if (step.done) return null;
      const chunk = step.value;
      if (!(chunk instanceof Uint8Array)) throw new TypeError("body chunk is not bytes");
      if (chunk.length === 0) continue;
      this.encoded += chunk.length;
      this.windowBytes += chunk.length;
      if (this.encoded > this.cap) {
        this.overflow = true;
        this.retained = null;
        this.cancel();
        return null;
      }
      const refused = (await this.flow.gate?.admit(chunk.length)) ?? null;
      if (refused !== null) return this.refuse(refused);
      this.classify(chunk);
      return chunk;
    }
  }

  /** Holds `bytes` more in the gate (room for a decoder's output); the refusal, if any, also stops the read. */
  async admit(bytes: number): Promise<BodyRefusal | null> {
    const refused = (await this.flow.gate?.admit(bytes)) ?? null;
    if (refused !== null) this.refuse(refused);
    return refused;
  }

  giveBack(bytes: number): void {
    this.flow.gate?.giveBack(bytes);
  }

  private refuse(refusal: BodyRefusal): null {
    this.refusal = refusal;
    this.retained = null;
    this.cancel();
    return null;
  }

  /** The reader's next step, or null when the body fell behind its pace before it came. */
  private async paced(reader: ByteReader): Promise<{ done: boolean; value?: unknown } | null> {
    const pace = this.flow.pace;
    if (pace === undefined) return reader.read();
    const read = reader.read();
    for (;;) {
      const now = Date.now();
      // A window that brought too little ends the body; one that brought enough starts the next.
      while (now >= this.windowStart + pace.windowMs) {
        if (this.windowBytes < (pace.minBytesPerSecond * pace.windowMs) / 1000) return null;
        this.windowStart += pace.windowMs;
        this.windowBytes = 0;
      }
      const deadline = this.startedAt + pace.deadlineMs;
      if (now >= deadline) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const tick = new Promise<"tick">((resolve) => {
        timer = setTimeout(() => resolve("tick"), Math.min(this.windowStart + pace.windowMs, deadline) - now);
      });
      const step = await Promise.race([read, tick]);
      clearTimeout(timer);
      if (step !== "tick") return step;
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

/** The rest of `src` as one array, or null once it passed its cap or was refused (reading stops there). */
export async function readToEnd(src: RawSource): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  for (let chunk = await src.next(); chunk !== null; chunk = await src.next()) chunks.push(chunk);
  if (src.overflow || src.refusal !== null) return null;
  return concatChunks(chunks, chunks.reduce((sum, chunk) => sum + chunk.length, 0));
}

export type CappedBody = { ok: true; bytes: Uint8Array } | { ok: false; refusal: BodyRefusal };

/** The whole body as sent; a 413 naming `what` when it is larger than `maxBytes`, or the gate's or pace's refusal. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, what: string, flow: BodyFlow = {}): Promise<CappedBody> {
  const src = new RawSource(body, maxBytes, false, flow);
  const bytes = await readToEnd(src);
  if (bytes !== null) return { ok: true, bytes };
  return { ok: false, refusal: src.refusal ?? { status: 413, reason: cappedMessage(what, maxBytes) } };
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
