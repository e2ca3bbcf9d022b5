/** A fresh AES key pair for the demo and tests, so no real game key is ever needed. */
import { randomBytes } from "node:crypto";

export interface RandomKeyPair {
  key: Uint8Array;
  iv: Uint8Array;
  /** Env-ready forms (`hex:...`) for AES_KEY / AES_IV. */
  keyText: string;
  ivText: string;
}

/** A fresh random key and IV (cryptographically random). */
export function randomKeyPair(bits: 128 | 192 | 256 = 128): RandomKeyPair {
  const key = new Uint8Array(randomBytes(bits / 8));
  const iv = new Uint8Array(randomBytes(16));
  return {
    key,
    iv,
    keyText: `hex:${Buffer.from(key).toString("hex")}`,
    ivText: `hex:${Buffer.from(iv).toString("hex")}`,
  };
}

/** A fresh key pair and the AES_KEY / AES_IV env that makes the service decrypt with it. */
export function randomKeys(): { pair: RandomKeyPair; env: { AES_KEY: string; AES_IV: string } } {
  const pair = randomKeyPair();
  return { pair, env: { AES_KEY: pair.keyText, AES_IV: pair.ivText } };
}
