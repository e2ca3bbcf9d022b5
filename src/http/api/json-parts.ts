/**
 * The top-level members of a JSON object, sliced out of its bytes without parsing them (so 64-bit numbers stay
 * as written, and no string of the whole is made): what `filter` and `key` pick from a stored save JSON.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export interface JsonMember {
  /** `"key":value` as written. */
  member: Buffer;
  /** The value alone. */
  value: Buffer;
}

/** Index just past the string literal that opens at `start`. */
function stringEnd(json: Uint8Array, start: number): number {
  for (let at = json.indexOf(QUOTE, start + 1); at !== -1; at = json.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (json[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at + 1;
  }
  return json.length;
}

export function topLevelMembers(object: Buffer): Map<string, JsonMember> {
  // Indexed as a plain Uint8Array: JSC reads a Buffer's bytes about twice as slowly.
  const bytes = new Uint8Array(object.buffer, object.byteOffset, object.length);
  const members = new Map<string, JsonMember>();
  let depth = 0;
  let start = -1;
  let keyEnd = -1;
  const close = (end: number) => {
    if (start >= 0) members.set(JSON.parse(object.toString("utf8", start, keyEnd)) as string, { member: object.subarray(start, end), value: object.subarray(keyEnd + 1, end) });
    start = -1;
  };
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte === QUOTE) {
      const end = stringEnd(bytes, at);
      if (depth === 1 && start < 0) [start, keyEnd] = [at, end];
      at = end - 1;
    } else if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      if (--depth === 0) close(at);
    } else if (byte === COMMA && depth === 1) close(at);
  }
  return members;
}
