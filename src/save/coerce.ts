/**
 * Lenient readers for decoded save values. Every reader returns null when the value cannot be read,
 * so a malformed record is skipped by its caller instead of throwing.
 *
 * Rules:
 * - Integers (ids, counts, hp, seq, timestamps): a number with no fractional part within the safe
 *   range, or a string of decimal digits (optional sign) within the safe range. 3.0 is 3; 3.5 is
 *   rejected (ids must be exact, rounding could merge two resources).
 * - Coordinates: any finite number, or a string holding a finite decimal number ("3", "-2.5").
 *   Fractions are kept (positions may be floats).
 * - NaN, ±Infinity, empty strings, booleans, null and objects are rejected everywhere.
 */

export type RecordValue = Record<string, unknown>;

export function asRecord(value: unknown): RecordValue | null {
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) return null;
  return value as RecordValue;
}

export function asArray(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function readInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value === "string") {
    const text = value.trim();
    if (!INTEGER_TEXT.test(text)) return null;
    const parsed = Number(text);
    return Number.isSafeInteger(parsed) ? parsed : null;
  }
  return null;
}

export function readCoordinate(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") {
    const text = value.trim();
    if (!DECIMAL_TEXT.test(text)) return null;
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function readString(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** An optional integer field: absent (undefined or null) gives the fallback, present but malformed gives null. */
export function readOptionalInteger(value: unknown, fallback: number): number | null {
  if (value === undefined || value === null) return fallback;
  return readInteger(value);
}
