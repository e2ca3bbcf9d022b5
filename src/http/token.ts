/** Constant-time token checks for the request path. */
import { timingSafeEqual } from "node:crypto";

function sha256(text: string): Buffer {
  return Buffer.from(new Bun.CryptoHasher("sha256").update(text).digest());
}

/** Compares over sha256 digests, so the lengths always match and the time does not depend on the token. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(sha256(given), sha256(expected));
}
