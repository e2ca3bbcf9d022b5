/**
 * Checks every request passes before any route: a Host header that parses (a bad one is 400, never a throw in
 * a route that builds a URL from the request), and answers that no other site may frame.
 */
import type { MiddlewareHandler } from "hono";

const HOST_SHAPE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?$/;

export interface ParsedHost {
  /** Lower-cased; an IPv6 literal keeps its brackets. */
  name: string;
  port: number | null;
}

/** A Host header as a client sends it: a name or IP literal and an optional port 1–65535; null when malformed. */
export function parseHost(host: string): ParsedHost | null {
  const match = HOST_SHAPE.exec(host);
  if (match === null) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  if (!URL.canParse(`http://${host}/`)) return null;
  return { name: match[1]!.toLowerCase(), port };
}

export function validHost(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host");
    // The request URL is built from Host: both must parse, so no route can throw on `new URL(c.req.url)`.
    if ((host !== undefined && parseHost(host) === null) || !URL.canParse(c.req.url)) return c.text("bad Host header", 400);
    await next();
  };
}

/** An owner page framed by another site could be clicked through (a setup-token rotation is one click). */
/** Every answer's Content-Type is the one to read it by (JSON answers too, which browsers would otherwise sniff). */
export function noSniff(): MiddlewareHandler {
  return async (c, next) => {
    c.header("X-Content-Type-Options", "nosniff");
    await next();
  };
}

export function refuseFraming(): MiddlewareHandler {
  // Set before the route answers: set after, Hono rebuilds the answer and loses its implicit Content-Type.
  return async (c, next) => {
    c.header("X-Frame-Options", "DENY");
    c.header("Content-Security-Policy", "frame-ancestors 'none'");
    await next();
  };
}
