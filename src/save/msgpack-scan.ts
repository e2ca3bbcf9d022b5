/**
 * A pass over MessagePack bytes that builds nothing: it walks the headers with a stack of item counts and
 * checks the structure against MSGPACK_LIMITS before the decoder allocates anything. @msgpack/msgpack has no
 * depth limit (its stack grows with the input), so depth, the value count and every declared length are
 * checked here. A length that the remaining bytes cannot hold is malformed, not too large: wrong-key garbage
 * must read as "not MessagePack", never as an over-limit save.
 */
import { MSGPACK_LIMITS, SaveLimitError } from "./limits.ts";

export class MsgpackScanError extends Error {}

interface Header {
  /** Bytes of the header itself (type byte and length field). */
  head: number;
  /** Bytes of payload after the header (string, binary, number or extension data). */
  payload: number;
  /** Values that follow as children (2 per map entry). */
  children: number;
  kind?: "str" | "bin" | "array" | "map";
  /** Declared length: items, entries or bytes. */
  declared?: number;
}

const FIXED_SIZES: Record<number, number> = {
  0xc0: 0, 0xc2: 0, 0xc3: 0, 0xca: 4, 0xcb: 8, 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8,
  0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8, 0xd4: 2, 0xd5: 3, 0xd6: 5, 0xd7: 9, 0xd8: 17,
};

function readHeader(view: DataView, pos: number): Header {
  const b = view.getUint8(pos);
  if (b < 0x80 || b >= 0xe0) return { head: 1, payload: 0, children: 0 };
  if (b < 0x90) return { head: 1, payload: 0, children: 2 * (b & 0x0f), kind: "map", declared: b & 0x0f };
  if (b < 0xa0) return { head: 1, payload: 0, children: b & 0x0f, kind: "array", declared: b & 0x0f };
  if (b < 0xc0) return { head: 1, payload: b & 0x1f, children: 0, kind: "str", declared: b & 0x1f };
  const fixed = FIXED_SIZES[b];
  if (fixed !== undefined) return { head: 1, payload: fixed, children: 0 };
  const at = pos + 1;
  switch (b) {
    case 0xc4: case 0xd9: return sized(b === 0xd9 ? "str" : "bin", 2, view.getUint8(at));
    case 0xc5: case 0xda: return sized(b === 0xda ? "str" : "bin", 3, view.getUint16(at));
    case 0xc6: case 0xdb: return sized(b === 0xdb ? "str" : "bin", 5, view.getUint32(at));
    case 0xc7: return sized("bin", 3, view.getUint8(at));
    case 0xc8: return sized("bin", 4, view.getUint16(at));
    case 0xc9: return sized("bin", 6, view.getUint32(at));
    case 0xdc: return { head: 3, payload: 0, children: view.getUint16(at), kind: "array", declared: view.getUint16(at) };
    case 0xdd: return { head: 5, payload: 0, children: view.getUint32(at), kind: "array", declared: view.getUint32(at) };
    case 0xde: return { head: 3, payload: 0, children: 2 * view.getUint16(at), kind: "map", declared: view.getUint16(at) };
    case 0xdf: return { head: 5, payload: 0, children: 2 * view.getUint32(at), kind: "map", declared: view.getUint32(at) };
  }
  throw new MsgpackScanError(`unknown type byte 0x${b.toString(16)} at ${pos}`);
}

function sized(kind: "str" | "bin", head: number, length: number): Header {
  return { head, payload: length, children: 0, kind, declared: length };
}

function describe(kind: Header["kind"]): { what: string; unit: string } {
  if (kind === "array") return { what: "an array", unit: "items" };
  if (kind === "map") return { what: "a map", unit: "entries" };
  return { what: kind === "str" ? "a string" : "a binary value", unit: "bytes" };
}

function checkLimit(header: Header): void {
  const { kind, declared = 0 } = header;
  const limit =
    kind === "array" ? MSGPACK_LIMITS.arrayLength
    : kind === "map" ? MSGPACK_LIMITS.mapLength
    : kind === "str" ? MSGPACK_LIMITS.strBytes
    : kind === "bin" ? MSGPACK_LIMITS.binBytes
    : Infinity;
  if (declared <= limit) return;
  const { what, unit } = describe(kind);
  throw new SaveLimitError(`${what} of ${declared} ${unit} (limit ${limit})`);
}

/** Throws MsgpackScanError when the bytes are not exactly one MessagePack value, SaveLimitError past a limit. */
export function scanMsgpack(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength;
  const pending = [1];
  let pos = 0;
  let values = 0;
  while (pending.length > 0) {
    const top = pending.length - 1;
    if (pending[top] === 0) {
      pending.pop();
      continue;
    }
    pending[top]!--;
    if (pos >= end) throw new MsgpackScanError("ends in the middle of a value");
    if (++values > MSGPACK_LIMITS.values) throw new SaveLimitError(`more than ${MSGPACK_LIMITS.values} values`);
    let header: Header;
    try {
      header = readHeader(view, pos);
    } catch (error) {
      if (error instanceof RangeError) throw new MsgpackScanError("ends inside a header");
      throw error;
    }
    const left = end - pos - header.head;
    // Every child takes at least one byte: a count the rest cannot hold is a lie, not a big save.
    if (header.payload > left || header.children > left) {
      if (header.kind === undefined) throw new MsgpackScanError("ends in the middle of a value");
      const { what, unit } = describe(header.kind);
      throw new MsgpackScanError(`${what} declares ${header.declared} ${unit} but ${left} bytes remain`);
    }
    checkLimit(header);
    pos += header.head + header.payload;
    if (header.kind === "array" || header.kind === "map") {
      if (pending.length > MSGPACK_LIMITS.depth) throw new SaveLimitError(`nested deeper than ${MSGPACK_LIMITS.depth} levels`);
      pending.push(header.children);
    }
  }
  if (pos !== end) throw new MsgpackScanError(`${end - pos} bytes after the value`);
}
