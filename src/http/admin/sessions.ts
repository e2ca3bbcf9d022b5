/**
 * Login sessions of the owner's pages: a random id in an HttpOnly, SameSite=Strict cookie. The store keeps its
 * sha256 (src/db/owner-sessions.ts), so every process of a hub answers it and a restart keeps it.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { closeSession, openSession, sessionOpen } from "../../db/owner-sessions.ts";
import type { Db } from "../../db/open.ts";
import { sha256Hex } from "../../sha256.ts";

export const SESSION_COOKIE = "mysk_owner";
const SESSION_MS = 7 * 24 * 60 * 60 * 1000;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export class SessionStore {
  constructor(private readonly db: Db) {}

  /** Starts a session and sets its cookie. */
  open(c: Context, now = Date.now()): void {
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    openSession(this.db, idHash(id), now + SESSION_MS, now);
    setCookie(c, SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: SESSION_MS / 1000,
      secure: isHttps(c),
    });
  }

  valid(c: Context, now = Date.now()): boolean {
    const id = sessionId(c);
    return id !== undefined && sessionOpen(this.db, idHash(id), now);
  }

  close(c: Context): void {
    const id = sessionId(c);
    if (id !== undefined) closeSession(this.db, idHash(id));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
  }
}

/** The cookie's id when it has the shape this store gives out: anything else is no session, without a lookup. */
function sessionId(c: Context): string | undefined {
  const id = getCookie(c, SESSION_COOKIE);
  return id !== undefined && SESSION_ID.test(id) ? id : undefined;
}

const idHash = (id: string) => sha256Hex(id);

/** Behind a TLS-terminating proxy the request itself is plain HTTP: its X-Forwarded-Proto says https. */
function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}
