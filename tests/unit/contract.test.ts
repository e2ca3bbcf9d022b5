/** The contract's constants as seed-spec.md states them, and the one capped reader at and just past a cap. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/index.ts";
import {
  DEFAULT_REPORT_PATH,
  MAX_CHUNK_BYTES,
  MAX_CHUNKS,
  MAX_UPLOAD_BYTES,
  UPLOAD_ID_PATTERN,
  UPLOAD_PATHS,
} from "../../src/contract.ts";
import { readCapped, type CappedBody } from "../../src/ingest/capped-body.ts";
import { readReportBody, type BodyResult } from "../../src/ingest/decompress.ts";
import { sliced } from "./ingest-fixtures.ts";

describe("the contract", () => {
  test("holds the spec's values (every other test imports them from here)", () => {
    expect(MAX_CHUNK_BYTES).toBe(1_048_576);
    expect(MAX_UPLOAD_BYTES).toBe(1_048_576);
    expect(MAX_CHUNKS).toBe(10);
    expect(UPLOAD_ID_PATTERN.source).toBe("^[a-zA-Z0-9_-]{1,64}$");
    expect(UPLOAD_PATHS).toEqual(["/uploadSaveData", "/uploadMySekai"]);
    expect(DEFAULT_REPORT_PATH).toBe("/capture/report");
    const { report } = loadConfig({});
    expect({ path: report.path, maxEncodedBytes: report.maxEncodedBytes }).toEqual({ path: "/capture/report", maxEncodedBytes: 1_048_576 });
  });
});

/** `size` bytes of JSON-looking text (`{` then spaces), as 64 KiB slices. */
function bodyOf(size: number) {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes[0] = 0x7b;
  return sliced(bytes, 64 * 1024);
}

describe("one capped reader for uploads and reports", () => {
  const CAP = 200_000;
  const report = (stream: ReadableStream<Uint8Array>) =>
    readReportBody(stream, { contentEncoding: null, maxEncodedBytes: CAP, maxDecodedBytes: CAP });

  test("an upload of exactly the cap is read whole; one byte more is refused; a large one stops being read", async () => {
    const at = await readCapped(bodyOf(CAP).stream, CAP, "chunk");
    expect(at.ok && at.bytes.byteLength).toBe(CAP);
    const refused: CappedBody = { ok: false, refusal: { status: 413, reason: `chunk exceeds ${CAP} bytes` } };
    expect(await readCapped(bodyOf(CAP + 1).stream, CAP, "chunk")).toEqual(refused);
    const large = bodyOf(10 * CAP);
    expect(await readCapped(large.stream, CAP, "chunk")).toEqual(refused);
    expect(large.stats.cancelled).toBe(true);
    expect(large.stats.pulled).toBeLessThan(2 * CAP);
  });

  test("a report of exactly the cap is read whole; one byte more is a 413; a large one stops being read", async () => {
    const at = await report(bodyOf(CAP).stream);
    expect(at.ok && at.bytes.byteLength).toBe(CAP);
    const refused: BodyResult = { ok: false, status: 413, reason: `report body exceeds ${CAP} bytes` };
    expect(await report(bodyOf(CAP + 1).stream)).toEqual(refused);
    const large = bodyOf(10 * CAP);
    expect(await report(large.stream)).toEqual(refused);
    expect(large.stats.cancelled).toBe(true);
    expect(large.stats.pulled).toBeLessThan(2 * CAP);
  });

  test("a report under a smaller decoded cap names that cap", async () => {
    const result = await readReportBody(bodyOf(CAP).stream, { contentEncoding: null, maxEncodedBytes: CAP, maxDecodedBytes: CAP - 1 });
    expect(result).toEqual({ ok: false, status: 413, reason: `report body exceeds ${CAP - 1} bytes` });
  });

  test("no body reads as empty for an upload", async () => {
    expect(await readCapped(null, CAP, "chunk")).toEqual({ ok: true, bytes: new Uint8Array(0) });
  });
});
