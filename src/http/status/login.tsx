/** @jsxImportSource hono/jsx */
/** The login form of the owner's pages: shows nothing but the form (a wrong token never sees player data). */
import { Layout, Section } from "./layout.tsx";

export function LoginPage({ wrong }: { wrong: boolean }) {
  return (
    <Layout title="MySekai ingest · log in">
      <h1>MySekai ingest</h1>
      <Section title="Log in">
        {wrong ? <p class="err">Wrong token.</p> : null}
        <form method="post" action="/login">
          <label>
            ADMIN_TOKEN
            <input type="password" name="token" autocomplete="current-password" required />
          </label>
          <button type="submit">Log in</button>
        </form>
      </Section>
    </Layout>
  );
}
