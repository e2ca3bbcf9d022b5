/** @jsxImportSource hono/jsx */
/**
 * The owner's controls of the data API on the status page: the API tokens (names and grants; a new token is
 * shown once, on the page that answers its form, and stored only as a hash) and the consumer webhooks (ids
 * and hosts: their URLs and secrets are never shown again). POST /status/api-tokens and …/revoke.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { logInfo } from "../../log.ts";
import { dataWebhookOrigin } from "../../notify/data-webhook.ts";
import type { HttpDeps } from "../deps.ts";
import { pageLang, pageText, type PageLang } from "../page-lang.ts";
import { formFields } from "./form.ts";
import { Layout, Section, Time } from "./layout.tsx";
import type { DataWebhook } from "../../store/model/deliveries.ts";
import { API_TOKEN_NAME, PLAYER_ID_SHAPE, type ApiToken } from "../../store/model/owner.ts";

const MAX_PLAYERS = 100;
const NO_STORE = { "Cache-Control": "no-store" };

export function DataApiSection({ tokens, hooks, lang: { t, zone } }: { tokens: ApiToken[]; hooks: DataWebhook[]; lang: PageLang }) {
  return (
    <Section title={t.dataApi}>
      <p class="muted">{t.dataApiHint("/api/…")}</p>
      {tokens.length === 0 ? <p class="muted">{t.noApiTokens}</p> : null}
      <div class="scroll" hidden={tokens.length === 0}>
        <table>
          <tr><th>{t.headToken}</th><th>{t.headReads}</th><th>{t.headMade}</th><th></th></tr>
          {tokens.map((token) => (
            <tr>
              <td translate="no">{token.name}</td>
              <td class="id">{token.players === null ? t.everyPlayer : token.players.join(", ")}</td>
              <td><Time ms={token.createdAt} zone={zone} /></td>
              <td>
                <form class="inline" method="post" action="/status/api-tokens/revoke">
                  <input type="hidden" name="name" value={token.name} />
                  <button type="submit">{t.revoke}</button>
                </form>
              </td>
            </tr>
          ))}
        </table>
      </div>
      <form method="post" action="/status/api-tokens" class="new-token">
        <label>{t.newTokenName} <input name="name" required pattern="[A-Za-z0-9_.\-]{1,64}" placeholder="lunabot" /></label>
        <label>{t.onlyThesePlayers} <input name="players" inputmode="numeric" placeholder={t.everyPlayer} /></label>
        <button type="submit">{t.makeToken}</button>
      </form>
      <p class="muted">
        {t.consumerWebhooks}{" "}
        {hooks.length === 0 ? (
          <>
            {t.noWebhooksYet} <code translate="no">npm run cli -- data-webhooks add &lt;url&gt;</code>
          </>
        ) : <span translate="no">{hooks.map((hook) => `${hook.id} → ${dataWebhookOrigin(hook.url)}`).join(", ")}</span>}
      </p>
    </Section>
  );
}

export function dataApiRoutes(deps: HttpDeps, owner: MiddlewareHandler): Hono {
  const { access } = deps.owner;
  const app = new Hono();
  app.post("/status/api-tokens", owner, async (c) => {
    const lang = pageLang(c, deps.config);
    const { t } = lang;
    const form = await formFields(c);
    if (form === "too_large") return c.text(t.errFormTooLarge, 413);
    const name = form.get("name")?.trim() ?? "";
    const players = (form.get("players") ?? "").replace(/\s+/g, "");
    const ids = players === "" ? null : players.split(",");
    if (!API_TOKEN_NAME.test(name)) return c.text(t.errTokenName, 400);
    if (ids !== null && (ids.length > MAX_PLAYERS || !ids.every((id) => PLAYER_ID_SHAPE.test(id)))) return c.text(t.errPlayers(MAX_PLAYERS), 400);
    // The form never replaces a token: one of that name is revoked first, on purpose.
    if ((await access.listApiTokens()).some((token) => token.name === name)) return c.text(t.errTokenExists(name), 409);
    const token = await access.addApiToken(name, ids);
    logInfo("API", "API token made on the status page", { name });
    const page = (
      <Layout title={t.newTokenTitle} lang={lang}>
        <h1>{t.newTokenHeading(name)}</h1>
        <p>{t.copyTokenNow}</p>
        <p><code class="token" translate="no">{token}</code></p>
        <p>{t.tokenReads(ids === null ? t.everyPlayer : ids.join(", "))} <a href="/">{t.backToStatus}</a></p>
      </Layout>
    );
    return c.html(page, 200, NO_STORE);
  });
  app.post("/status/api-tokens/revoke", owner, async (c) => {
    const t = pageText(c, deps.config);
    const form = await formFields(c);
    if (form === "too_large") return c.text(t.errFormTooLarge, 413);
    const name = form.get("name") ?? "";
    if (!API_TOKEN_NAME.test(name)) return c.text(t.errNoSuchToken, 400);
    if (await access.revokeApiToken(name)) logInfo("API", "API token revoked on the status page", { name });
    return c.redirect("/", 303);
  });
  return app;
}

export const dataApiView = async ({ owner }: HttpDeps) => ({ tokens: await owner.access.listApiTokens(), hooks: await owner.webhooks.list() });
