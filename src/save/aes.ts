/** AES-CBC with strict PKCS#7 padding, over node:crypto. Errors carry a short reason, never key material. */
import { createCipheriv, createDecipheriv } from "node:crypto";

export const AES_BLOCK_SIZE = 16;

export type AesFailure = "bad key length" | "bad iv length" | "bad length" | "bad padding";

export class AesDecryptError extends Error {
  override readonly name = "AesDecryptError";
  constructor(
    readonly reason: AesFailure,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

function cipherName(key: Uint8Array): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) {
    throw new AesDecryptError("bad key length", `key must be 16, 24 or 32 bytes, got ${key.length}`);
  }
  return `aes-${key.length * 8}-cbc`;
}

function checkIv(iv: Uint8Array): void {
  if (iv.length !== AES_BLOCK_SIZE) {
    throw new AesDecryptError("bad iv length", `IV must be ${AES_BLOCK_SIZE} bytes, got ${iv.length}`);
  }
}

/** Length of valid PKCS#7 padding at the end of `plain`, or a failure description. */
function paddingLength(plain: Uint8Array): number | string {
  const last = plain[plain.length - 1] ?? 0;
  if (last < 1 || last > AES_BLOCK_SIZE) return `last byte ${last} is not 1..16`;
  for (let i = plain.length - last; i < plain.length; i++) {
    if (plain[i] !== last) return "padding bytes differ";
  }
  return last;
}

export function decryptAesCbc(data: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array {
  const algorithm = cipherName(key);
  checkIv(iv);
  if (data.length === 0 || data.length % AES_BLOCK_SIZE !== 0) {
    throw new AesDecryptError("bad length", `ciphertext length ${data.length} is not a positive multiple of 16`);
  }
  const decipher = createDecipheriv(algorithm, key, iv);
  decipher.setAutoPadding(false);
  const head = decipher.update(data);
  const tail = decipher.final();
  const plain = tail.length === 0 ? head : Buffer.concat([head, tail]);
  const padding = paddingLength(plain);
  if (typeof padding === "string") throw new AesDecryptError("bad padding", padding);
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.length - padding);
}

export function encryptAesCbc(plain: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array {
  const algorithm = cipherName(key);
  checkIv(iv);
  const cipher = createCipheriv(algorithm, key, iv);
  // Node's automatic padding is PKCS#7.
  const out = Buffer.concat([cipher.update(plain), cipher.final()]);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
