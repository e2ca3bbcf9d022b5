/**
 * Login sessions of the owner's pages: a random id in an HttpOnly, SameSite=Strict cookie. The store keeps its
 * sha256 (SessionRecords), so every process of a hub answers it and a restart keeps it. The hash is bound to the
 * ADMIN_TOKEN in force: once the token changes (and the service restarts), no session opened under the old one
 * opens anything.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sha256Hex } from "../../sha256.ts";
import type { SessionRecords } from "../../store/ports/owner.ts";

export const SESSION_COOKIE = "mysk_owner";
const SESSION_MS = 7 * 24 * 60 * 60 * 1000;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export class SessionStore {
  private readonly idHash: (id: string) => string;

  /** `adminToken`: the ADMIN_TOKEN in force, which each session's hash is bound to. */
  constructor(
    private readonly records: SessionRecords,
    adminToken: string | null = null,
  ) {
    const binding = adminToken === null ? "" : `${sha256Hex(adminToken)}:`;
    this.idHash = (id) => sha256Hex(`${binding}${id}`);
  }

  /** Starts a session and sets its cookie. */
  async open(c: Context, now = Date.now()): Promise<void> {
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    await this.records.open(this.idHash(id), now + SESSION_MS, now);
    setCookie(c, SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: SESSION_MS / 1000,
      secure: isHttps(c),
    });
  }

  async valid(c: Context, now = Date.now()): Promise<boolean> {
    const id = sessionId(c);
    return id !== undefined && (await this.records.isOpen(this.idHash(id), now));
  }

  async close(c: Context): Promise<void> {
    const id = sessionId(c);
    if (id !== undefined) await this.records.close(this.idHash(id));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
  }

  /** Log out everywhere: every session ends, this one's cookie goes. */
  async closeAll(c: Context): Promise<number> {
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return this.records.closeAll();
  }
}

/** The cookie's id when it has the shape this store gives out: anything else is no session, without a lookup. */
function sessionId(c: Context): string | undefined {
  const id = getCookie(c, SESSION_COOKIE);
  return id !== undefined && SESSION_ID.test(id) ? id : undefined;
}

/** Behind a TLS-terminating proxy the request itself is plain HTTP: its X-Forwarded-Proto says https. */
function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}
