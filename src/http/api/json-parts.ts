/**
 * The top-level members of a JSON object text, sliced out without parsing it (so 64-bit numbers stay as
 * written): what `filter` and `key` pick from a stored save JSON. The text is the exactJson of a decoded save.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export interface JsonMember {
  /** `"key":value` as written. */
  member: string;
  /** The value alone. */
  value: string;
}

/** Index just past the string literal that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let at = text.indexOf('"', start + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at + 1;
  }
  return text.length;
}

export function topLevelMembers(object: string): Map<string, JsonMember> {
  const members = new Map<string, JsonMember>();
  let depth = 0;
  let start = -1;
  let keyEnd = -1;
  const close = (end: number) => {
    if (start >= 0) members.set(JSON.parse(object.slice(start, keyEnd)) as string, { member: object.slice(start, end), value: object.slice(keyEnd + 1, end) });
    start = -1;
  };
  for (let at = 0; at < object.length; at++) {
    const code = object.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(object, at);
      if (depth === 1 && start < 0) [start, keyEnd] = [at, end];
      at = end - 1;
    } else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      if (--depth === 0) close(at);
    } else if (code === COMMA && depth === 1) close(at);
  }
  return members;
}
