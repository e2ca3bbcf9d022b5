/**
 * JSON text of a decoded save in which every integer keeps its exact value: 64-bit integers (bigint) are
 * written as number literals, so a 19-digit id reads back digit for digit in a parser that keeps big numbers
 * (Python's json, for one). Binary values become base64 strings. The tree is bounded by the MessagePack scan,
 * and the text by the save's size: under 10 bytes per decrypted byte (the costliest value, a 3-byte extension,
 * becomes {"type":-128,"data":"AA=="}).
 *
 * One native JSON.stringify with a replacer (a bigint as JSON.rawJSON) rather than a walk that joins strings:
 * the same text at ~half the CPU (1–2 ms a save; docs/benchmarks-history.md, issue 33 point 5). The replacer reads each value
 * from its holder, before any toJSON: a timestamp extension (a Date) stays `{}` as the walk wrote it, and an
 * undefined stays `null`.
 */
/** JSON.rawJSON: in Bun's JavaScriptCore, not yet in TypeScript's lib. */
const rawJson = (JSON as JSON & { rawJSON(text: string): unknown }).rawJSON;

function exactValue(this: Record<string, unknown>, key: string, converted: unknown): unknown {
  const value = this[key];
  if (typeof value === "bigint") return rawJson(value.toString());
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (value instanceof Date) return {};
  return converted;
}

export function exactJson(value: unknown): string {
  return JSON.stringify(value, exactValue) ?? "null";
}
