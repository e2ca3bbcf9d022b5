/**
 * JSON text of a decoded save in which every integer keeps its exact value: 64-bit integers (bigint) are
 * written as number literals, so a 19-digit id reads back digit for digit in a parser that keeps big numbers
 * (Python's json, for one). Binary values become base64 strings. The tree is bounded by the MessagePack scan,
 * and the text by the save's size: under 10 bytes per decrypted byte (the costliest value, a 3-byte extension,
 * becomes {"type":-128,"data":"AA=="}).
 */
export function exactJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString("base64"));
  if (Array.isArray(value)) return `[${value.map(exactJson).join(",")}]`;
  if (typeof value === "object") {
    const fields = Object.entries(value as Record<string, unknown>).map(([key, field]) => `${JSON.stringify(key)}:${exactJson(field)}`);
    return `{${fields.join(",")}}`;
  }
  return "null";
}
