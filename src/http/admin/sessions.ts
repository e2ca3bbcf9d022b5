/**
 * Login sessions of the owner's pages: a random id in an HttpOnly, SameSite=Strict cookie, the id kept in
 * memory (never the token itself). A restart logs everyone out; the store is bounded.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

export const SESSION_COOKIE = "mysk_owner";
const SESSION_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_SESSIONS = 256;

export class SessionStore {
  private readonly expiries = new Map<string, number>();

  /** Starts a session and sets its cookie. */
  open(c: Context, now = Date.now()): void {
    this.prune(now);
    // The oldest session goes first when the store is full.
    if (this.expiries.size >= MAX_SESSIONS) this.expiries.delete(this.expiries.keys().next().value!);
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    this.expiries.set(id, now + SESSION_MS);
    setCookie(c, SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: SESSION_MS / 1000,
      secure: isHttps(c),
    });
  }

  valid(c: Context, now = Date.now()): boolean {
    const id = getCookie(c, SESSION_COOKIE);
    const expiry = id === undefined ? undefined : this.expiries.get(id);
    return expiry !== undefined && expiry > now;
  }

  close(c: Context): void {
    const id = getCookie(c, SESSION_COOKIE);
    if (id !== undefined) this.expiries.delete(id);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
  }

  private prune(now: number): void {
    for (const [id, expiry] of this.expiries) if (expiry <= now) this.expiries.delete(id);
  }
}

/** Behind a TLS-terminating proxy the request itself is plain HTTP: its X-Forwarded-Proto says https. */
function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}
