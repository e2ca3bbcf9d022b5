/** Constant-time token checks for the request path. */
import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { logWarn, type LogPrefix } from "../log.ts";

function sha256(text: string): Buffer {
  return Buffer.from(new Bun.CryptoHasher("sha256").update(text).digest());
}

/** Compares over sha256 digests, so the lengths always match and the time does not depend on the token. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(sha256(given), sha256(expected));
}

/**
 * Refuses a request without the configured token (in any of `headers`) with 401, before anything else holds
 * resources for it (the decode budget, the body). No token configured: every request passes.
 */
export function requireToken(expected: string | null, headers: readonly string[], prefix: LogPrefix, what: string): MiddlewareHandler {
  return async (c, next) => {
    if (expected !== null && !headers.some((name) => tokenMatches(c.req.header(name), expected))) {
      const reason = `missing or wrong ${what} token`;
      logWarn(prefix, "rejected", { status: 401, reason });
      return c.text(reason, 401);
    }
    await next();
  };
}
