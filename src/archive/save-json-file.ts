/**
 * save.json.gz: a save's exact JSON (src/save/exact-json.ts) as the data API serves it, built once by the
 * generate task beside save.bin. An ordinary gzip file (zcat prints the JSON), laid out so that an answer with
 * fields added at the end (upload_time, source…) is this file up to its closing brace plus a few new bytes,
 * never a compression of the whole: the object without its "}" is deflated and sync-flushed (it ends on a byte
 * boundary), the "}" follows in a stored block of its own, and the header's extra field keeps the CRC-32 of the
 * part before it, which the new trailer continues.
 */
import { constants, crc32, deflateRawSync, gunzipSync } from "node:zlib";

export const SAVE_JSON_FILE = "save.json.gz";

/** gzip magic, deflate, FLG.FEXTRA, MTIME 0, XFL 0, OS unknown; XLEN 8; subfield "MJ" of 4 bytes (the prefix's CRC-32). */
const HEADER = [0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255, 8, 0, 0x4d, 0x4a, 4, 0];
const HEADER_BYTES = HEADER.length + 4;
/** A final stored block holding the one byte "}": BFINAL=1 BTYPE=00, LEN 1, NLEN ~1, "}". */
const CLOSING_BLOCK = [0x01, 0x01, 0x00, 0xfe, 0xff, 0x7d];
const TRAILER_BYTES = 8;
const TAIL_BYTES = CLOSING_BLOCK.length + TRAILER_BYTES;

const uint32 = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];

/**
 * zlib level 3, not the default 6: half the CPU for ~1.2× the bytes (the harness's save: 1.23 → 0.54 ms, 24.3 →
 * 29.1 KB; the real save 0.92 → 0.35 ms, 19.5 → 21.9 KB), a few KB beside a save's ~1 MB of maps.
 */
const JSON_ZLIB_LEVEL = 3;

/** The file for the JSON object `json` (written by exactJson: it starts with "{" and ends with "}"). */
export function packSaveJson(json: string): Uint8Array {
  const text = Buffer.from(json);
  const prefix = text.subarray(0, text.length - 1);
  const prefixCrc = crc32(prefix);
  const deflated = deflateRawSync(prefix, { level: JSON_ZLIB_LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([
    Uint8Array.from([...HEADER, ...uint32(prefixCrc)]),
    deflated,
    Uint8Array.from([...CLOSING_BLOCK, ...uint32(crc32(text.subarray(text.length - 1), prefixCrc)), ...uint32(text.length)]),
  ]);
}

/** A stored save.json.gz, checked for the layout above (a file of any other shape is not used). */
export class StoredSaveJson {
  private constructor(
    readonly bytes: Uint8Array,
    private readonly prefixCrc: number,
    /** Bytes of the JSON before its closing brace. */
    private readonly prefixBytes: number,
  ) {}

  static open(bytes: Uint8Array): StoredSaveJson | null {
    if (bytes.length < HEADER_BYTES + TAIL_BYTES) return null;
    if (HEADER.some((byte, i) => bytes[i] !== byte)) return null;
    const closing = bytes.length - TAIL_BYTES;
    if (CLOSING_BLOCK.some((byte, i) => bytes[closing + i] !== byte)) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const size = view.getUint32(bytes.length - 4, true);
    if (size < 2) return null;
    return new StoredSaveJson(bytes, view.getUint32(HEADER.length, true), size - 1);
  }

  /** The JSON's bytes; throws when the file is damaged (its CRC or deflate stream is wrong). */
  json(): Buffer {
    return gunzipSync(this.bytes);
  }

  /** A gzip body of the JSON with `members` ("key":value,…) added before its closing brace, compressing only those. */
  gzipWith(members: string): Uint8Array {
    const tail = Buffer.from(`${this.prefixBytes > 1 && members !== "" ? "," : ""}${members}}`);
    const crc = crc32(tail, this.prefixCrc);
    return Buffer.concat([
      this.bytes.subarray(0, this.bytes.length - TAIL_BYTES),
      deflateRawSync(tail),
      Uint8Array.from([...uint32(crc), ...uint32(this.prefixBytes + tail.length)]),
    ]);
  }
}
