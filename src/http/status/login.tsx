/** @jsxImportSource hono/jsx */
/** The login form of the owner's pages: shows nothing but the form (a wrong token never sees player data). */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "../../config/index.ts";
import { pageLang, type PageLang } from "../page-lang.ts";
import { Layout, Section } from "./layout.tsx";

/**
 * Where a login goes back to: the owner page it stood in for. Kept in a cookie for /login alone, never in the form:
 * the login page must not repeat an address that can name a player.
 */
const NEXT_COOKIE = "login_next";
const NEXT_MAX = 512;

/** A path of this site only: "/x?y", never "//host" or "/\\host" (a browser reads both as another site). */
const localPath = (value: string | undefined): string | null =>
  value !== undefined && value.length <= NEXT_MAX && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : null;

/** The login form in place of an owner page (401), remembering that page for after the login. */
export function loginInstead(c: Context, config: Pick<Config, "pages" | "maps">, wrong = false): Response | Promise<Response> {
  const url = new URL(c.req.url);
  const here = localPath(`${url.pathname}${url.search}`);
  if (c.req.method === "GET" && here !== null) setCookie(c, NEXT_COOKIE, here, { path: "/login", httpOnly: true, sameSite: "Lax", maxAge: 3600 });
  return c.html(<LoginPage wrong={wrong} lang={pageLang(c, config, "/login")} />, 401);
}

/** After a right token: the page the login stood in for, else the status page. */
export function afterLogin(c: Context): string {
  const next = localPath(getCookie(c, NEXT_COOKIE));
  deleteCookie(c, NEXT_COOKIE, { path: "/login" });
  return next ?? "/";
}

export function LoginPage({ wrong, lang }: { wrong: boolean; lang: PageLang }) {
  const { t } = lang;
  return (
    <Layout title={t.logInTitle} lang={lang}>
      <h1>{t.appName}</h1>
      <Section title={t.logIn}>
        {wrong ? <p class="err">{t.wrongToken}</p> : null}
        <form method="post" action="/login">
          <label>
            <span translate="no">ADMIN_TOKEN</span>
            <input type="password" name="token" autocomplete="current-password" required />
          </label>
          <button type="submit">{t.logIn}</button>
        </form>
      </Section>
    </Layout>
  );
}
