import { describe, expect, test } from "bun:test";
import { decodeBase64Tolerant, textToBytes } from "../../src/ingest/har-body.ts";
import { cleanHeaderValue } from "../../src/ingest/har-meta.ts";
import { extractCandidates as extractWith, proxyPinMeta, reqableMeta, type HarExtraction, type HarLimits, type HarResult } from "../../src/ingest/har.ts";

const LIMITS: HarLimits = { maxEntries: 1000, maxCandidates: 64 };
const extractCandidates = (doc: unknown, phase: string | null = null) => extractWith(doc, phase, LIMITS);
/** A text body of 16 chars: a candidate (AES-CBC bodies are whole 16-byte blocks). */
const block = (tag: string) => tag.padEnd(16, ".");

const SAVE_URL = "https://api.example.test/api/user/7401234567890123456/mysekai?isForceAllReloadOnlyMysekai=True";

function extraction(result: HarResult): HarExtraction {
  if ("error" in result) throw new Error(`expected an extraction, got error: ${result.error}`);
  return result;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);
const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join("");

function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

function entry(response: unknown, request: Record<string, unknown> = {}): Record<string, unknown> {
  return { startedDateTime: "2025-01-01T00:00:00Z", request: { method: "GET", url: SAVE_URL, ...request }, response };
}

describe("extractCandidates: shapes", () => {
  const save = randomBytes(4096);
  const reqableEntry = entry({ status: 200, content: { size: save.length, mimeType: "application/octet-stream", encoding: "base64", text: save.toBase64() } });

  test("a whole HAR (Reqable)", () => {
    const out = extraction(extractCandidates({ log: { version: "1.2", entries: [reqableEntry] } }));
    expect(out.shape).toBe("har");
    expect(out.entryCount).toBe(1);
    expect(out.candidates).toHaveLength(1);
    const [first] = out.candidates;
    expect(first?.part).toBe("response");
    expect(first?.url).toBe(SAVE_URL);
    expect(first?.entryIndex).toBe(0);
    expect(hex(first?.body ?? new Uint8Array())).toBe(hex(save));
  });

  test("a bare entry (ProxyPin) and a bare array of entries", () => {
    expect(extraction(extractCandidates(reqableEntry)).shape).toBe("entry");
    const batch = extraction(extractCandidates([reqableEntry, reqableEntry]));
    expect(batch.shape).toBe("har");
    expect(batch.candidates.map((c) => c.entryIndex)).toEqual([0, 1]);
  });

  test("ProxyPin split reports, as ProxyPin writes them", () => {
    const body = randomBytes(512);
    const requestPhase = { _phase: "request", request: { method: "POST", url: SAVE_URL, postData: { mimeType: "application/octet-stream", text: latin1(body) }, bodySize: body.length }, response: null };
    const req = extraction(extractCandidates(requestPhase, "request"));
    expect(req.shape).toBe("split-request");
    expect(req.candidates.map((c) => [c.part, c.url, hex(c.body)])).toEqual([["request", SAVE_URL, hex(body)]]);

    const responsePhase = { _phase: "response", request: { method: "POST", url: SAVE_URL }, response: { status: 200, content: { size: body.length, text: latin1(body) } } };
    const res = extraction(extractCandidates(responsePhase, "Response"));
    expect(res.shape).toBe("split-response");
    expect(res.candidates.map((c) => [c.part, hex(c.body)])).toEqual([["response", hex(body)]]);

    // Without the header, the entry's own _phase decides.
    expect(extraction(extractCandidates(responsePhase, null)).shape).toBe("split-response");
  });

  test("bare request and response objects are accepted only with a split phase", () => {
    const bareRequest = { method: "POST", url: SAVE_URL, postData: { text: block("abc") } };
    const bareResponse = { status: 200, content: { text: block("xyz") } };
    const req = extraction(extractCandidates(bareRequest, "request"));
    expect(req.candidates.map((c) => [c.part, c.url, new TextDecoder().decode(c.body)])).toEqual([["request", SAVE_URL, block("abc")]]);
    const res = extraction(extractCandidates(bareResponse, "response"));
    expect(res.candidates.map((c) => [c.part, c.url, new TextDecoder().decode(c.body)])).toEqual([["response", null, block("xyz")]]);
    expect(extractCandidates(bareResponse)).toHaveProperty("error");
    expect(extractCandidates(bareRequest, "message")).toHaveProperty("error");
  });

  test("documents that are not HAR give an error", () => {
    expect(extractCandidates(null)).toEqual({ error: "report is not a JSON object", status: 400 });
    expect(extractCandidates("log")).toEqual({ error: "report is not a JSON object", status: 400 });
    expect(extractCandidates({ log: { entries: {} } })).toEqual({ error: "HAR log.entries is missing or not an array", status: 400 });
    expect(extractCandidates({ log: null })).toEqual({ error: "HAR log.entries is missing or not an array", status: 400 });
    expect(extractCandidates({ hello: "world" })).toEqual({ error: "report is not HAR: no log.entries, request or response", status: 400 });
    expect(extractCandidates({ request: "GET /", response: 5 })).toHaveProperty("error");
  });

  test("an empty entries array is a valid, empty report", () => {
    const out = extraction(extractCandidates({ log: { entries: [] } }));
    expect([out.entryCount, out.candidates.length, out.skippedEntries]).toEqual([0, 0, 0]);
  });
});

describe("extractCandidates: bodies", () => {
  test("order: entries in order, response before request", () => {
    const entries = [
      entry({ content: { text: block("r0") } }, { method: "POST", postData: { text: block("q0") } }),
      entry({ content: { text: "" } }, { method: "POST", postData: { text: block("q1") } }),
      entry({ content: { text: block("r2") } }),
    ];
    const out = extraction(extractCandidates({ log: { entries } }));
    expect(out.candidates.map((c) => `${c.entryIndex}:${c.part}:${new TextDecoder().decode(c.body).replace(/\.+$/, "")}`)).toEqual([
      "0:response:r0",
      "0:request:q0",
      "1:request:q1",
      "2:response:r2",
    ]);
    expect(out.emptyBodies).toBe(1);
  });

  test("a request body alone is a candidate", () => {
    const body = randomBytes(320);
    const out = extraction(extractCandidates(entry(undefined, { method: "POST", postData: { encoding: "base64", text: body.toBase64() } })));
    expect(out.candidates.map((c) => [c.part, hex(c.body)])).toEqual([["request", hex(body)]]);
  });

  test("ProxyPin char-per-byte text round-trips random binary bytes", () => {
    const body = randomBytes(64 * 1024);
    body.set([0x00, 0x7f, 0x80, 0xff], 0);
    const out = extraction(extractCandidates(entry({ content: { text: latin1(body) } })));
    expect(hex(out.candidates[0]?.body ?? new Uint8Array())).toBe(hex(body));
  });

  test("text beyond Latin-1 is UTF-8 encoded", () => {
    const text = '{"name":"ミク"}'.padEnd(28, " "); // 26 ASCII bytes + 2 × 3 bytes = 32 bytes of UTF-8
    const out = extraction(extractCandidates(entry({ content: { text } })));
    expect(hex(out.candidates[0]?.body ?? new Uint8Array())).toBe(hex(utf8(text)));
  });

  test("bodies that cannot be a save (empty, or not whole 16-byte blocks) are counted, not kept", () => {
    const entries = [15, 16, 17, 33, 48].map((n) => entry({ content: { encoding: "base64", text: randomBytes(n).toBase64() } }));
    entries.push(entry({ content: { text: "x".repeat(31) } }), entry({ content: { encoding: "base64", text: " \r\n" } }));
    const out = extraction(extractCandidates({ log: { entries } }));
    expect(out.candidates.map((c) => [c.entryIndex, c.body.byteLength])).toEqual([[1, 16], [4, 48]]);
    expect(out.otherBodies).toBe(4);
    expect(out.emptyBodies).toBe(1);
  });

  test("empty bodies are counted, absent ones only when a size was declared", () => {
    const entries = [
      entry({ content: { size: 200000, text: "" } }), // the Reqable empty-content bug
      entry({ content: { size: 200000 } }),
      entry({ content: { size: 0 } }), // nothing declared, nothing sent
      entry({ content: { size: -1 }, bodySize: -1 }),
      entry({ content: { text: block("ok") } }, { method: "GET" }), // a GET without a body is not "empty"
      entry({ content: { text: block("ok") } }, { method: "POST", bodySize: 10, postData: { text: "" } }),
    ];
    const out = extraction(extractCandidates({ log: { entries } }));
    expect(out.emptyBodies).toBe(3);
    expect(out.candidates.map((c) => c.entryIndex)).toEqual([4, 5]);
  });

  test("malformed entries are skipped and counted, never thrown", () => {
    const good = entry({ content: { text: block("fine") } });
    const entries: unknown[] = [
      null,
      42,
      "entry",
      [good],
      {},
      { request: "GET /", response: { content: { text: "x" } } },
      { request: { url: SAVE_URL }, response: [] },
      { request: null, response: null },
      { request: { url: 123, postData: { text: 5 } }, response: { content: "text" } },
      { request: { url: SAVE_URL, postData: [] }, response: { content: { text: null } } },
      good,
    ];
    const out = extraction(extractCandidates({ log: { entries } }));
    expect(out.entryCount).toBe(11);
    expect(out.skippedEntries).toBe(8);
    expect(out.skippedBodies).toBe(3);
    expect(out.candidates.map((c) => [c.entryIndex, c.url])).toEqual([[10, SAVE_URL]]);
    expect(out.notes.length).toBeLessThanOrEqual(10);
  });
});

describe("base64 bodies as capture tools write them", () => {
  const save = randomBytes(4096 + 32);
  const b64 = save.toBase64();
  const url = b64.replace(/\+/g, "-").replace(/\//g, "_");
  const cut = randomBytes(4096 + 16).toBase64(); // 4112 bytes: the text ends in "=" padding
  const variants: [string, string, Uint8Array][] = [
    ["canonical", b64, save],
    ["wrapped every 76 chars (MIME, CRLF)", b64.match(/.{1,76}/g)!.join("\r\n"), save],
    ["wrapped every 64 chars (LF) with a trailing newline", `${b64.match(/.{1,64}/g)!.join("\n")}\n`, save],
    ["spaces and tabs", b64.replace(/(.{10})/g, "$1 \t"), save],
    ["URL-safe alphabet", url, save],
    ["URL-safe, unpadded, wrapped", cut.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_").match(/.{1,76}/g)!.join("\n"), Uint8Array.fromBase64(cut)],
    ["unpadded", cut.replace(/=+$/, ""), Uint8Array.fromBase64(cut)],
  ];
  for (const [name, text, bytes] of variants) {
    test(`${name}: decoded to the exact bytes`, () => {
      expect(cut.endsWith("=")).toBe(true);
      expect(url).toMatch(/[-_]/);
      expect(hex(decodeBase64Tolerant(text) ?? new Uint8Array())).toBe(hex(bytes));
      const out = extraction(extractCandidates(entry({ content: { encoding: "base64", text } })));
      expect(out.candidates.map((c) => [c.undecodable, hex(c.body)])).toEqual([[false, hex(bytes)]]);
    });
  }

  test("small cases: padding optional, nonzero pad bits tolerated, URL-safe chars", () => {
    expect(Array.from(decodeBase64Tolerant("AQI=") ?? [])).toEqual([1, 2]);
    expect(Array.from(decodeBase64Tolerant("AQI") ?? [])).toEqual([1, 2]);
    expect(Array.from(decodeBase64Tolerant("AQ") ?? [])).toEqual([1]);
    expect(Array.from(decodeBase64Tolerant("AR==") ?? [])).toEqual([1]);
    expect(Array.from(decodeBase64Tolerant("-_8=") ?? [])).toEqual([0xfb, 0xff]);
    expect(Array.from(decodeBase64Tolerant(" A Q = = \n") ?? [])).toEqual([1]);
  });

  test("both alphabets in one text (each decoder alone refuses it): decoded to the exact bytes", () => {
    expect(Array.from(decodeBase64Tolerant("-/8=") ?? [])).toEqual([0xfb, 0xff]);
    const mixed = `${b64.slice(0, 2000)}\n${url.slice(2000)}`;
    expect(mixed).toMatch(/[+/]/);
    expect(mixed).toMatch(/[-_]/);
    expect(hex(decodeBase64Tolerant(mixed) ?? new Uint8Array())).toBe(hex(save));
  });

  test("text that is not base64 at all is still refused", () => {
    for (const bad of ["A", "AQ=A", "A===", "AQI==", "AQ=", "QUJD=", "hello world!", "{\"a\":1}", "QU\u00e9D", "AQ==AQ==", "===="]) {
      expect({ bad, bytes: decodeBase64Tolerant(bad) }).toEqual({ bad, bytes: null });
    }
  });

  test("an undecodable body is kept as a candidate (its UTF-8 text, marked), never dropped", () => {
    const good = randomBytes(32);
    const garbage = "not base64 at all: ミク!";
    const entries = [
      entry({ content: { encoding: "base64", text: garbage } }),
      entry({ content: { encoding: "BASE64", text: good.toBase64() } }),
    ];
    const out = extraction(extractCandidates({ log: { entries } }));
    expect(out.candidates.map((c) => [c.entryIndex, c.undecodable, hex(c.body)])).toEqual([
      [0, true, hex(utf8(garbage))],
      [1, false, hex(good)],
    ]);
    expect(out.notes[0]).toBe("entry 0 response: body is not valid base64");
  });
});

describe("caps per report", () => {
  const limits: HarLimits = { maxEntries: 5, maxCandidates: 3 };
  const candidate = () => entry({ content: { encoding: "base64", text: randomBytes(32).toBase64() } });
  const junk = () => entry({ content: { text: "tiny" } });

  test("entries: exactly the cap passes, one more is a 413", () => {
    expect(extraction(extractWith({ log: { entries: Array.from({ length: 5 }, junk) } }, null, limits)).otherBodies).toBe(5);
    expect(extractWith({ log: { entries: Array.from({ length: 6 }, junk) } }, null, limits)).toEqual({ error: "report has more than 5 entries", status: 413 });
    expect(extractWith(Array.from({ length: 6 }, junk), null, limits)).toMatchObject({ status: 413 });
  });

  test("candidates: exactly the cap passes, one more is a 413; undecodable bodies count", () => {
    const atCap = extraction(extractWith({ log: { entries: [candidate(), junk(), candidate(), candidate()] } }, null, limits));
    expect(atCap.candidates).toHaveLength(3);
    const over = [candidate(), candidate(), entry({ content: { encoding: "base64", text: "!!" } }), candidate()];
    expect(extractWith({ log: { entries: over } }, null, limits)).toEqual({ error: "report has more than 3 candidate bodies", status: 413 });
    // Both bodies of one entry count.
    const both = entry({ content: { encoding: "base64", text: randomBytes(16).toBase64() } }, { method: "POST", postData: { encoding: "base64", text: randomBytes(16).toBase64() } });
    expect(extractWith({ log: { entries: [both, both] } }, null, limits)).toMatchObject({ status: 413 });
  });

  test("the walk stops at the first candidate past the cap", () => {
    let read = 0;
    const counted = () => ({ request: { method: "GET", url: SAVE_URL }, get response() { read++; return { content: { encoding: "base64", text: randomBytes(16).toBase64() } }; } });
    const entries = Array.from({ length: 5 }, counted);
    expect(extractWith({ log: { entries } }, null, { maxEntries: 5, maxCandidates: 2 })).toMatchObject({ status: 413 });
    expect(read).toBe(3);
  });
});

describe("har-body helpers", () => {
  test("textToBytes keeps Latin-1 one byte per char", () => {
    expect(Array.from(textToBytes("\u0000\u00ff A"))).toEqual([0, 255, 32, 65]);
    expect(Array.from(textToBytes("é€"))).toEqual(Array.from(utf8("é€")));
  });
});

describe("report metadata headers", () => {
  test("Reqable headers, cleaned and short; the tag (may hold a token) is never returned", () => {
    const headers = new Headers({
      "x-reqable-platform": "android",
      "x-reqable-reporter-host": " api.example.test\u0007 ",
      "x-reqable-reporter-rule": "r".repeat(500),
      "x-reqable-reporter-tag": "secret-token",
    });
    expect(reqableMeta(headers)).toEqual({ platform: "android", host: "api.example.test", rule: `${"r".repeat(64)}...` });
    expect(reqableMeta(new Headers())).toEqual({});
  });

  test("raw UTF-8 header bytes are read back as text; bidi and line controls are removed", () => {
    expect(cleanHeaderValue(latin1(utf8("存档 rule")))).toBe("存档 rule");
    expect(cleanHeaderValue("a\u202eb\u2028c\r\nd")).toBe("abcd");
    expect(cleanHeaderValue("   ")).toBeUndefined();
  });

  test("ProxyPin headers", () => {
    const headers = new Headers({ "x-report-name": encodeURIComponent("MySekai 规则"), "x-report-phase": "Response" });
    expect(proxyPinMeta(headers)).toEqual({ name: "MySekai 规则", phase: "response" });
    expect(proxyPinMeta(new Headers({ "x-report-name": "%E0%A4%A" }))).toEqual({ name: "%E0%A4%A" });
  });
});
