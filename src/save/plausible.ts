/**
 * Whether bytes can be a save under one of the configured keys, in microseconds: whole AES blocks whose last
 * block decrypts to valid PKCS#7 padding (random bytes pass about once in 250). Nothing is decoded.
 */
import { AES_BLOCK_SIZE, decryptAesCbc } from "./aes.ts";
import type { KeyPair } from "./keys.ts";
import { INVALID_REASONS } from "./open.ts";

/** Why the bytes cannot be a save under `keys`, or null when they may be one (always, without keys). */
export function implausibleReason(encrypted: Uint8Array, keys: readonly KeyPair[]): string | null {
  const length = encrypted.byteLength;
  if (length === 0) return INVALID_REASONS.empty;
  if (length % AES_BLOCK_SIZE !== 0) return INVALID_REASONS.badLength;
  if (keys.length === 0) return null;
  const last = encrypted.subarray(length - AES_BLOCK_SIZE);
  const before = length > AES_BLOCK_SIZE ? encrypted.subarray(length - 2 * AES_BLOCK_SIZE, length - AES_BLOCK_SIZE) : null;
  const padded = keys.some(({ key, iv }) => {
    try {
      decryptAesCbc(last, key, before ?? iv);
      return true;
    } catch {
      return false;
    }
  });
  return padded ? null : INVALID_REASONS.badPadding;
}

export function mayBeSave(encrypted: Uint8Array, keys: readonly KeyPair[]): boolean {
  return implausibleReason(encrypted, keys) === null;
}
