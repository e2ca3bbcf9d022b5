/** JSON.parse that keeps integers past 2^53 exact (as bigint), as a bot's parser in Python would. */
export function parseExact(text: string): unknown {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[^"\-\d]+/gy;
  let out = "";
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    const part = match[0];
    out += /^-?\d{16,}$/.test(part) ? `{"$bigint":"${part}"}` : part;
  }
  return JSON.parse(out, (_key, value) => (value !== null && typeof value === "object" && "$bigint" in value ? BigInt(value.$bigint) : value));
}
