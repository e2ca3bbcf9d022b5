/** The one sha256 helper: hex digest of bytes or text (save identity, chunk hashes, token lookups, log hashes). */
export function sha256Hex(data: Uint8Array | string): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}
