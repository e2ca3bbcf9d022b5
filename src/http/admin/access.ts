/**
 * Who may see the owner's pages. With ADMIN_TOKEN: `Authorization: Bearer <token>`, HTTP Basic with the
 * token as password (any user name), or a login session cookie. Without it: loopback clients that name this
 * machine in Host (localhost, 127.x, [::1]) only, and not requests a local reverse proxy forwards (they carry a
 * forwarding header; a proxy that adds none looks like loopback, so set ADMIN_TOKEN behind one). Requests that
 * change state must come from this origin.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AdminConfig } from "../../config/admin.ts";
import type { Messages } from "../../i18n/messages/index.ts";
import { logWarn } from "../../log.ts";
import { isLoopback, socketPeer } from "../peer.ts";
import { isLoopbackName } from "../../config/public-base.ts";
import { parseHost } from "../front-door.ts";
import { tokenMatches } from "../token.ts";
import type { LoginAttempts } from "./login-throttle.ts";
import type { SessionStore } from "./sessions.ts";

/** One per app, shared by every owner page: a login opens them all, and wrong guesses count across them. */
export interface OwnerGate {
  sessions: SessionStore;
  logins: LoginAttempts;
  /** Whom the throttle counts: behind a trusted local proxy, the client it forwards for (src/http/peer.ts). */
  peer: (c: Context) => string;
  /** The refusals' text in the reader's language (src/http/page-lang.ts). */
  text: (c: Context) => Pick<Messages, "errCrossSite" | "errLoopbackOnly" | "errTooManyTokens">;
}

export type Access = "bearer" | "basic" | "session" | "loopback";

function basicPassword(header: string): string | undefined {
  try {
    const decoded = atob(header);
    const colon = decoded.indexOf(":");
    return colon < 0 ? undefined : decoded.slice(colon + 1);
  } catch {
    return undefined;
  }
}

/** A loopback peer that forwards for someone else is a reverse proxy: its clients are not the owner. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

/**
 * The Host a loopback owner's browser sends. Any other name is a page that pointed its own domain at this
 * machine (DNS rebinding): the browser treats it as that site, so its Origin matches and its cookies are its own.
 */
function isLoopbackHost(host: string | undefined): boolean {
  // parseHost refuses what a URL cannot hold (a port past 65535, an octet past 255, a tail after "]").
  const name = host === undefined ? undefined : parseHost(host)?.name;
  return isLoopbackName(name);
}

/** Credentials sent with the request (Bearer or Basic), whether or not they are right. */
function presentsCredentials(c: Context): boolean {
  return /^(bearer|basic)\s/i.test(c.req.header("authorization") ?? "");
}

/** 429 while this peer must wait after too many wrong tokens (the token is not even checked then). */
export async function loginThrottled(c: Context, gate: OwnerGate): Promise<Response | null> {
  const peer = gate.peer(c);
  const waitMs = await gate.logins.waitMs(peer, Date.now());
  if (waitMs === 0) return null;
  logWarn("SERVER", "owner login refused: too many wrong tokens from this peer", { status: 429, peer, waitMs });
  c.header("Retry-After", String(Math.ceil(waitMs / 1000)));
  return c.text(gate.text(c).errTooManyTokens, 429);
}

/** Counts one token check of this peer: a wrong one towards the throttle, a right one clears it. */
export async function recordLogin(c: Context, gate: OwnerGate, right: boolean): Promise<void> {
  const peer = gate.peer(c);
  if (right) await gate.logins.succeeded(peer);
  else await gate.logins.failed(peer, Date.now());
}

export async function accessOf(c: Context, admin: AdminConfig, sessions: SessionStore): Promise<Access | null> {
  if (admin.token === null) {
    const forwarded = FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined);
    return !forwarded && isLoopback(socketPeer(c)) && isLoopbackHost(c.req.header("host")) ? "loopback" : null;
  }
  // Exactly a scheme and one credential: anything after it ("Bearer <token> junk") is no credential.
  const [, scheme = "", value = ""] = /^(\S+) +(\S+)$/.exec(c.req.header("authorization") ?? "") ?? [];
  if (scheme.toLowerCase() === "bearer" && tokenMatches(value, admin.token)) return "bearer";
  if (scheme.toLowerCase() === "basic" && tokenMatches(basicPassword(value), admin.token)) return "basic";
  return (await sessions.valid(c)) ? "session" : null;
}

/**
 * A state-changing request from a browser carries Sec-Fetch-Site or Origin: it must name this site.
 * Browsers attach cookies and cached Basic credentials by themselves, never a Bearer header.
 */
export function fromThisOrigin(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) return site === "same-origin" || site === "none";
  const origin = c.req.header("origin");
  if (origin === undefined) return false;
  // Behind a TLS-terminating proxy the request is plain HTTP: its X-Forwarded-Proto says what the browser used.
  const scheme = c.req.header("x-forwarded-proto") === "https" ? "https:" : new URL(c.req.url).protocol;
  try {
    const from = new URL(origin);
    return from.protocol === scheme && from.host === c.req.header("host");
  } catch {
    return false;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

export function ownerOnly(admin: AdminConfig, gate: OwnerGate, loginPage: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    const guessing = admin.token !== null && presentsCredentials(c) && !(await gate.sessions.valid(c));
    if (guessing) {
      const throttled = await loginThrottled(c, gate);
      if (throttled !== null) return throttled;
    }
    const access = await accessOf(c, admin, gate.sessions);
    if (guessing) await recordLogin(c, gate, access !== null);
    if (!SAFE_METHODS.has(c.req.method) && access !== "bearer" && !fromThisOrigin(c)) {
      logWarn("SERVER", "cross-site request to an owner page refused", { path: c.req.path });
      return c.text(gate.text(c).errCrossSite, 403);
    }
    if (access !== null) return next();
    if (admin.token === null) return c.text(gate.text(c).errLoopbackOnly("ADMIN_TOKEN"), 403);
    if (c.req.method === "GET" && (c.req.header("accept") ?? "").includes("text/html")) return loginPage(c);
    c.header("WWW-Authenticate", 'Basic realm="mysekai-ingest", charset="UTF-8"');
    return c.text("owner access required", 401);
  };
}
