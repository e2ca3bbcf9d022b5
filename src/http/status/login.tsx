/** @jsxImportSource hono/jsx */
/** The login form of the owner's pages: shows nothing but the form (a wrong token never sees player data). */
import type { PageLang } from "../page-lang.ts";
import { Layout, Section } from "./layout.tsx";

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
