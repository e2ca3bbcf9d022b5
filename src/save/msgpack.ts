/**
 * MessagePack decoding tuned for game saves.
 * - 64-bit integers are read as bigint (exact), then normalised: within ±Number.MAX_SAFE_INTEGER
 *   they become numbers, beyond it decimal strings (19-digit player ids stay exact).
 * - Map keys of any type are tolerated: numbers and strings pass through, bigint keys follow the
 *   rule above, binary keys are read as UTF-8, anything else (nil, booleans ...) becomes String(key).
 *   Maps decode to plain objects, so every key ends up a property name.
 * - The bytes are scanned against MSGPACK_LIMITS first (depth, value count, lengths), so the decoder and the
 *   recursion below only ever see a bounded tree; the decoder gets the same length limits as a second fence.
 */
import { DecodeError, Decoder } from "@msgpack/msgpack";
import { MSGPACK_LIMITS } from "./limits.ts";
import { MsgpackScanError, scanMsgpack } from "./msgpack-scan.ts";

export class MsgpackDecodeError extends Error {
  override readonly name = "MsgpackDecodeError";
  constructor(detail: string) {
    super(`not valid MessagePack: ${detail}`);
  }
}

const utf8 = new TextDecoder();

export function normaliseBigInt(value: bigint): number | string {
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  return value <= limit && value >= -limit ? Number(value) : value.toString();
}

function convertMapKey(key: unknown): string | number {
  if (typeof key === "string" || typeof key === "number") return key;
  if (typeof key === "bigint") return normaliseBigInt(key);
  if (key instanceof Uint8Array) return utf8.decode(key);
  return String(key);
}

const decoder = new Decoder({
  useBigInt64: true,
  mapKeyConverter: convertMapKey,
  maxStrLength: MSGPACK_LIMITS.strBytes,
  maxBinLength: MSGPACK_LIMITS.binBytes,
  maxExtLength: MSGPACK_LIMITS.binBytes,
  maxArrayLength: MSGPACK_LIMITS.arrayLength,
  maxMapLength: MSGPACK_LIMITS.mapLength,
});

/**
 * Replaces every bigint in a freshly decoded tree, in place (the tree is ours, nobody else holds it).
 * Recursion depth is the tree's depth, which the scan has bounded to MSGPACK_LIMITS.depth.
 */
export function normaliseTree(value: unknown): unknown {
  if (typeof value === "bigint") return normaliseBigInt(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normaliseTree(value[i]);
    return value;
  }
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = normaliseTree(record[key]);
  }
  return value;
}

/**
 * Decodes exactly one MessagePack value (trailing bytes are an error). Throws MsgpackDecodeError, or
 * SaveLimitError when the structure is past MSGPACK_LIMITS. With `exact`, 64-bit integers stay bigint (for
 * output as exact JSON number literals); otherwise they are normalised as above.
 */
export function decodeMsgpack(bytes: Uint8Array, { exact = false }: { exact?: boolean } = {}): unknown {
  try {
    scanMsgpack(bytes);
  } catch (error) {
    if (error instanceof MsgpackScanError) throw new MsgpackDecodeError(error.message);
    throw error;
  }
  try {
    const tree = decoder.decode(bytes);
    return exact ? tree : normaliseTree(tree);
  } catch (error) {
    if (error instanceof DecodeError || error instanceof RangeError) throw new MsgpackDecodeError(error.message);
    throw new MsgpackDecodeError(error instanceof Error ? error.message : "unknown decoder failure");
  }
}
