/**
 * AES key material from configuration strings. Three forms are accepted for every key and IV:
 *   - raw text: the UTF-8 bytes of the string as given (the game uses 16 ASCII characters);
 *   - `hex:<hex digits>` (whitespace around the digits is ignored, case-insensitive digits);
 *   - `base64:<base64>` (standard or URL-safe alphabet, padding optional).
 * Error messages name the variable and the problem, never the value; `problem` says it in any of the owner's
 * languages (src/i18n/owner/config-*.ts), the message in English.
 */
import { configEn, type ConfigMessages } from "../i18n/owner/config-en.ts";

export class KeyConfigError extends Error {
  override readonly name = "KeyConfigError";
  readonly problem: (m: ConfigMessages) => string;
  constructor(
    readonly variable: string,
    problem: (m: ConfigMessages, variable: string) => string,
  ) {
    super(problem(configEn, variable));
    this.problem = (m) => problem(m, variable);
  }
}

export interface KeyPair {
  /** Where the pair came from ("AES_KEY", "AES_KEYS[0]" ...); safe to log. */
  label: string;
  key: Uint8Array;
  iv: Uint8Array;
}

export interface KeyEnv {
  AES_KEY?: string;
  AES_IV?: string;
  AES_KEYS?: string;
}

const HEX_PREFIX = "hex:";
const BASE64_PREFIX = "base64:";
const AES_KEY_LENGTHS = [16, 24, 32];
const AES_IV_LENGTH = 16;

function decodeHex(digits: string, variableName: string): Uint8Array {
  const clean = digits.trim();
  if (clean.length === 0) throw new KeyConfigError(variableName, (m, v) => m.hexEmpty(v));
  if (clean.length % 2 !== 0) throw new KeyConfigError(variableName, (m, v) => m.hexOdd(v));
  if (!/^[0-9a-fA-F]+$/.test(clean)) throw new KeyConfigError(variableName, (m, v) => m.hexChars(v));
  return new Uint8Array(Buffer.from(clean, "hex"));
}

function decodeBase64(text: string, variableName: string): Uint8Array {
  const clean = text.trim();
  if (clean.length === 0) throw new KeyConfigError(variableName, (m, v) => m.base64Empty(v));
  const unpadded = clean.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/_-]+$/.test(unpadded) || unpadded.length % 4 === 1) {
    throw new KeyConfigError(variableName, (m, v) => m.base64Bad(v));
  }
  // Buffer accepts both the standard and the URL-safe alphabet.
  return new Uint8Array(Buffer.from(unpadded, "base64"));
}

/** Decodes one key or IV string in any of the three forms. Does not check the length. */
export function parseKeyMaterial(value: string, variableName: string): Uint8Array {
  if (value.startsWith(HEX_PREFIX)) return decodeHex(value.slice(HEX_PREFIX.length), variableName);
  if (value.startsWith(BASE64_PREFIX)) return decodeBase64(value.slice(BASE64_PREFIX.length), variableName);
  if (value.length === 0) throw new KeyConfigError(variableName, (m, v) => m.keyEmpty(v));
  return new TextEncoder().encode(value);
}

/** A key of 16, 24 or 32 bytes (AES-128, AES-192, AES-256). */
export function parseAesKey(value: string, variableName: string): Uint8Array {
  const key = parseKeyMaterial(value, variableName);
  if (!AES_KEY_LENGTHS.includes(key.length)) {
    throw new KeyConfigError(variableName, (m, v) => m.keyLength(v, key.length));
  }
  return key;
}

/** An IV of exactly 16 bytes (the AES block size). */
export function parseAesIv(value: string, variableName: string): Uint8Array {
  const iv = parseKeyMaterial(value, variableName);
  if (iv.length !== AES_IV_LENGTH) {
    throw new KeyConfigError(variableName, (m, v) => m.ivLength(v, AES_IV_LENGTH, iv.length));
  }
  return iv;
}

/**
 * Splits one AES_KEYS entry into its key and IV strings.
 * Rule: the key ends at the first ':' that follows its optional `hex:` / `base64:` prefix
 * (hex and base64 never contain ':'), and everything after that ':' is the IV, taken whole.
 * So a raw-text key cannot contain ':' (use hex: for such a key); a raw-text IV may.
 */
export function splitKeyEntry(entry: string, label: string): { keyText: string; ivText: string } {
  let prefixLength = 0;
  if (entry.startsWith(HEX_PREFIX)) prefixLength = HEX_PREFIX.length;
  else if (entry.startsWith(BASE64_PREFIX)) prefixLength = BASE64_PREFIX.length;
  const separator = entry.indexOf(":", prefixLength);
  if (separator < 0) throw new KeyConfigError(label, (m, v) => m.keyIvPair(v));
  return { keyText: entry.slice(0, separator), ivText: entry.slice(separator + 1) };
}

/**
 * AES_KEYS holds extra pairs as `key:iv,key:iv` (see splitKeyEntry for the ':' rule). Entries are
 * split on ',' (never part of hex or base64; a raw-text key or IV containing ',' needs hex: or
 * base64:), surrounding whitespace is trimmed and empty entries (a trailing comma) are ignored.
 */
function parseKeyList(list: string): KeyPair[] {
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  return entries.map((entry, index) => {
    const label = `AES_KEYS[${index}]`;
    const { keyText, ivText } = splitKeyEntry(entry, label);
    return { label, key: parseAesKey(keyText, `${label} key`), iv: parseAesIv(ivText, `${label} IV`) };
  });
}

/**
 * All configured key pairs, in the order they should be tried: AES_KEY/AES_IV first, then AES_KEYS.
 * Nothing configured gives an empty list (the service waits for keys); a half-configured pair throws.
 */
export function parseKeyPairs(env: KeyEnv): KeyPair[] {
  const pairs: KeyPair[] = [];
  const hasKey = env.AES_KEY !== undefined && env.AES_KEY !== "";
  const hasIv = env.AES_IV !== undefined && env.AES_IV !== "";
  if (hasKey && !hasIv) throw new KeyConfigError("AES_IV", (m, v) => m.keyMissing(v, "AES_KEY"));
  if (hasIv && !hasKey) throw new KeyConfigError("AES_KEY", (m, v) => m.keyMissing(v, "AES_IV"));
  if (hasKey && hasIv) {
    pairs.push({
      label: "AES_KEY",
      key: parseAesKey(env.AES_KEY as string, "AES_KEY"),
      iv: parseAesIv(env.AES_IV as string, "AES_IV"),
    });
  }
  if (env.AES_KEYS !== undefined && env.AES_KEYS.trim() !== "") pairs.push(...parseKeyList(env.AES_KEYS));
  return pairs;
}
