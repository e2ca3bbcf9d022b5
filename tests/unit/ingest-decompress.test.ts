import { describe, expect, test } from "bun:test";
import { brotliCompressSync, constants } from "node:zlib";
import { parseContentEncoding, readReportBody, type BodyResult } from "../../src/ingest/decompress.ts";
import { compress, failingAfter, sampleJson, sliced, text, zeroBomb } from "./ingest-fixtures.ts";

const MiB = 1 << 20;
const caps = { maxEncodedBytes: 2 * MiB, maxDecodedBytes: 8 * MiB };

function read(bytes: Uint8Array, contentEncoding: string | null, overrides: Partial<typeof caps> = {}) {
  return readReportBody(sliced(bytes).stream, { contentEncoding, ...caps, ...overrides });
}

function expectOk(result: BodyResult, plain: Uint8Array, encoding: string): void {
  if (!result.ok) throw new Error(`expected ok, got ${result.status} ${result.reason}`);
  expect(result.encoding).toBe(encoding);
  expect(result.bytes.length).toBe(plain.length);
  expect(Buffer.from(result.bytes).equals(Buffer.from(plain))).toBe(true);
}

function expectFail(result: BodyResult, status: number, reason: string | RegExp): void {
  if (result.ok) throw new Error(`expected ${status}, got ok (${result.bytes.length} bytes)`);
  expect(result.status).toBe(status as 400 | 413);
  if (typeof reason === "string") expect(result.reason).toBe(reason);
  else expect(result.reason).toMatch(reason);
}

const plain = sampleJson(600 * 1024);

const bombs = new Map<string, Promise<Uint8Array>>();
/** 1 GiB of zeros compressed, built once per format (brotli at quality 1: the default takes ~40 s). */
function bombOf(format: Bun.CompressionFormat): Promise<Uint8Array> {
  let bomb = bombs.get(format);
  if (bomb === undefined) {
    bomb = zeroBomb(format, 1 << 30, format === "brotli" ? 1 : undefined);
    bombs.set(format, bomb);
  }
  return bomb;
}

describe("readReportBody: round trips", () => {
  const cases: [header: string | null, format: Bun.CompressionFormat | null, encoding: string][] = [
    ["gzip", "gzip", "gzip"],
    ["x-gzip", "gzip", "gzip"],
    ["GZip", "gzip", "gzip"],
    ["br", "brotli", "br"],
    ["zstd", "zstd", "zstd"],
    ["zstandard", "zstd", "zstd"],
    ["deflate", "deflate", "deflate"],
    ["identity", null, "identity"],
    [" identity , gzip ", "gzip", "gzip"],
    ["", null, "identity"],
    [null, null, "identity"],
  ];
  for (const [header, format, encoding] of cases) {
    test(`Content-Encoding ${JSON.stringify(header)}`, async () => {
      const body = format === null ? plain : await compress(plain, format);
      expectOk(await read(body, header), plain, encoding);
    });
  }

  test("a body of exactly maxEncodedBytes is accepted", async () => {
    const body = await compress(plain, "gzip");
    expectOk(await read(body, "gzip", { maxEncodedBytes: body.length }), plain, "gzip");
    expectOk(await read(plain, null, { maxEncodedBytes: plain.length, maxDecodedBytes: plain.length }), plain, "identity");
  });
});

describe("readReportBody: zstd frames without a content size", () => {
  test("a frame written by `zstd --no-content-size` (single block, checksum)", async () => {
    // printf '{"a":1}' | zstd --no-content-size: frame header descriptor 0x04 = checksum only.
    const frame = Uint8Array.from(Buffer.from("28b52ffd04003900007b2261223a317d488bfc32", "hex"));
    expect((frame[4] ?? 0xff) & 0xe0).toBe(0);
    expectOk(await read(frame, "zstd"), text('{"a":1}'), "zstd");
  });

  test("a multi-block frame streamed by CompressionStream", async () => {
    const frame = await compress(plain, "zstd");
    const descriptor = frame[4] ?? 0xff;
    expect(descriptor >> 6).toBe(0); // Frame_Content_Size_flag 0 ...
    expect(descriptor & 0x20).toBe(0); // ... and not single-segment: no content size field at all
    expectOk(await read(frame, "zstd"), plain, "zstd");
  });
});

describe("readReportBody: wrong or unknown Content-Encoding", () => {
  for (const header of ["gzip", "br", "zstd", "deflate"]) {
    test(`plain JSON labelled ${header} is accepted as identity`, async () => {
      const result = await read(plain, header);
      expectOk(result, plain, "identity");
      expect(result.ok && result.ignoredEncoding).toBe(header);
    });
  }

  test("leading whitespace before the JSON is allowed", async () => {
    const body = text(' \r\n\t[1,2,3]');
    expectOk(await read(body, "gzip"), body, "identity");
  });

  test("unknown encoding on JSON is accepted, on anything else refused with 400", async () => {
    const json = await read(plain, "compress");
    expectOk(json, plain, "identity");
    expect(json.ok && json.ignoredEncoding).toBe("compress");
    expectFail(await read(text("\x00\x01binary"), "compress"), 400, "unsupported Content-Encoding: compress");
  });

  test("the echoed header value is short and printable", async () => {
    const result = await read(text("not json"), `x-${"a".repeat(200)}\u0007`);
    expectFail(result, 400, /^unsupported Content-Encoding: x-a+\.\.\.$/);
    expect(result.ok ? 0 : result.reason.length).toBeLessThan(80);
  });

  test("stacked encodings are refused unless the body is plain JSON", async () => {
    const body = await compress(await compress(plain, "gzip"), "brotli");
    expectFail(await read(body, "gzip, br"), 400, "stacked Content-Encodings are not supported: gzip, br");
    expectOk(await read(plain, "gzip, br"), plain, "identity");
  });

  test("compressed data that happens to start with `[` is not taken for JSON", async () => {
    const body = await compress(plain, "brotli");
    expect(body[0]).toBe(0x5b); // brotli streams of this size start with "["
    expectFail(await read(body, "x-brotli"), 400, "unsupported Content-Encoding: x-brotli");
  });

  test("gzip bytes sent without Content-Encoding stay as they are", async () => {
    const body = await compress(plain, "gzip");
    expectOk(await read(body, null), body, "identity");
  });
});

describe("readReportBody: corrupt or empty bodies", () => {
  test("corrupt data that is not JSON gives 400 naming the coding", async () => {
    const junk = text("this is neither compressed nor JSON");
    expectFail(await read(junk, "gzip"), 400, "body is not valid gzip");
    expectFail(await read(junk, "x-gzip"), 400, "body is not valid gzip");
    expectFail(await read(junk, "br"), 400, "body is not valid brotli");
    expectFail(await read(junk, "zstd"), 400, "body is not valid zstd");
  });

  test("a truncated gzip body gives 400 and no partial output", async () => {
    const body = await compress(plain, "gzip");
    expectFail(await read(body.subarray(0, body.length - 100), "gzip"), 400, "body is not valid gzip");
  });

  test("an empty body gives 400", async () => {
    const none = await readReportBody(null, { contentEncoding: null, ...caps });
    expectFail(none, 400, "report body is empty");
    expectFail(await read(new Uint8Array(0), null), 400, "report body is empty");
    // zstd alone would decode nothing to nothing: every coding answers alike.
    for (const [header, name] of [["gzip", "gzip"], ["deflate", "deflate"], ["br", "brotli"], ["zstd", "zstd"]] as const) {
      expectFail(await read(new Uint8Array(0), header), 400, `body is not valid ${name}`);
    }
  });

  test("bytes after the end of the compressed data give 400", async () => {
    for (const [format, header, name] of [["gzip", "gzip", "gzip"], ["deflate", "deflate", "deflate"], ["brotli", "br", "brotli"], ["zstd", "zstd", "zstd"]] as const) {
      const body = await compress(plain, format);
      for (const tail of [text("garbage"), new Uint8Array(1000)]) {
        expectFail(await read(Buffer.concat([body, tail]), header), 400, `body is not valid ${name}`);
      }
    }
  });

  test("a body stream already read by someone else gives 400, never a throw", async () => {
    const stream = sliced(plain).stream;
    stream.getReader();
    expectFail(await readReportBody(stream, { contentEncoding: null, ...caps }), 400, "report body could not be read");
  });

  test("a body stream that fails mid-way gives 400, never a throw", async () => {
    const gz = await compress(plain, "gzip");
    for (const [prefix, header] of [[plain.subarray(0, 1000), null], [gz.subarray(0, 1000), "gzip"], [plain.subarray(0, 1000), "gzip"]] as const) {
      const result = await readReportBody(failingAfter(prefix), { contentEncoding: header, ...caps });
      expectFail(result, 400, "report body could not be read");
    }
  });
});

describe("readReportBody: caps", () => {
  test("more raw bytes than maxEncodedBytes gives 413 and stops reading", async () => {
    const body = await compress(plain, "gzip");
    for (const [bytes, header] of [[body, "gzip"], [plain, null], [plain, "gzip"], [plain, "compress"]] as const) {
      const source = sliced(bytes, 4096);
      const result = await readReportBody(source.stream, { contentEncoding: header, ...caps, maxEncodedBytes: 20_000 });
      expectFail(result, 413, "report body exceeds 20000 bytes");
      expect(source.stats.cancelled).toBe(true);
      expect(source.stats.pulled).toBeLessThan(40_000);
    }
  });

  test("more decoded bytes than maxDecodedBytes gives 413", async () => {
    const body = await compress(plain, "zstd");
    expectFail(await read(body, "zstd", { maxDecodedBytes: 100_000 }), 413, "decompressed report body exceeds 100000 bytes");
    expectFail(await read(plain, null, { maxDecodedBytes: 100_000 }), 413, "report body exceeds 100000 bytes");
    expectFail(await read(plain, "gzip", { maxDecodedBytes: 100_000 }), 413, "report body exceeds 100000 bytes");
  });

  for (const [format, header] of [["gzip", "gzip"], ["deflate", "deflate"], ["zstd", "zstd"], ["brotli", "br"]] as const) {
    test(`a 1 GiB ${format} bomb stops at the cap with little memory and time`, async () => {
      const bomb = await bombOf(format);
      expect(bomb.length).toBeLessThan(2 * MiB);
      Bun.gc(true);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1);
      const source = sliced(bomb, 4096);
      const started = performance.now();
      const result = await readReportBody(source.stream, { contentEncoding: header, maxEncodedBytes: 4 * MiB, maxDecodedBytes: 4 * MiB });
      const ms = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, source.stats.peakRss, process.memoryUsage().rss);
      // Decoding stops at the lower of the cap and 16 times the body's size.
      const reason = bomb.length * 16 < 4 * MiB ? "decompressed report body is more than 16 times its size as sent" : `decompressed report body exceeds ${4 * MiB} bytes`;
      expectFail(result, 413, reason);
      Bun.gc(true);
      const peakGrowth = (peak - before) / MiB;
      const afterGrowth = (process.memoryUsage().rss - before) / MiB;
      console.log(`[bomb ${format}] compressed ${bomb.length} B, ${ms.toFixed(1)} ms, rss peak +${peakGrowth.toFixed(1)} MiB, after gc +${afterGrowth.toFixed(1)} MiB`);
      expect(peakGrowth).toBeLessThan(30);
      expect(afterGrowth).toBeLessThan(30);
      // Decoding the whole GiB takes 1.4–3.7 s here; stopping at the cap, 1–10 ms.
      expect(ms).toBeLessThan(500);
    });
  }
});

test("a 51-byte brotli bomb declaring a 16 MiB window costs tens of ms, not seconds", async () => {
  // brotli fills its window before it writes anything out, so the cap is only checked after ~16 MiB.
  const bomb = brotliCompressSync(Buffer.alloc(64 * MiB), { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 } });
  expect(bomb.length).toBeLessThan(100);
  const started = performance.now();
  expectFail(await read(bomb, "br"), 413, "decompressed report body is more than 16 times its size as sent");
  expect(performance.now() - started).toBeLessThan(500);
});

test("a bomb arriving as one large chunk still stays within the memory bound", async () => {
  const bomb = await bombOf("gzip");
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1);
  const result = await readReportBody(sliced(bomb, bomb.length).stream, { contentEncoding: "gzip", ...caps });
  clearInterval(sampler);
  expectFail(result, 413, `decompressed report body exceeds ${caps.maxDecodedBytes} bytes`);
  expect((Math.max(peak, process.memoryUsage().rss) - before) / MiB).toBeLessThan(30);
});

describe("parseContentEncoding", () => {
  test("names each known coding once", () => {
    expect(parseContentEncoding("X-GZIP")).toEqual({ kind: "decode", name: "gzip" });
    expect(parseContentEncoding("br")).toEqual({ kind: "decode", name: "br" });
    expect(parseContentEncoding("identity, identity")).toEqual({ kind: "identity" });
    expect(parseContentEncoding("lz4").kind).toBe("unsupported");
  });
});
