/** @jsxImportSource hono/jsx */
/**
 * The owner's controls of the data API on the status page: the API tokens (names and grants; a new token is
 * shown once, on the page that answers its form, and stored only as a hash) and the consumer webhooks (ids
 * and hosts: their URLs and secrets are never shown again). POST /status/api-tokens and …/revoke.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { API_TOKEN_NAME, PLAYER_ID_SHAPE, type ApiToken } from "../../db/data-access.ts";
import type { DataWebhook } from "../../db/deliveries/data-webhooks.ts";
import { logInfo } from "../../log.ts";
import { dataWebhookOrigin } from "../../notify/data-webhook.ts";
import type { HttpDeps } from "../deps.ts";
import { formFields } from "./form.ts";
import { Layout, Section, Time } from "./layout.tsx";

const MAX_PLAYERS = 100;
const NO_STORE = { "Cache-Control": "no-store" };

export function DataApiSection({ tokens, hooks }: { tokens: ApiToken[]; hooks: DataWebhook[] }) {
  return (
    <Section title="Data API">
      <p class="muted">Bots read players' saves at /api/… with a token (README, "Use it from a bot").</p>
      {tokens.length === 0 ? <p class="muted">No API tokens yet.</p> : null}
      <div class="scroll" hidden={tokens.length === 0}>
        <table>
          <tr><th>token</th><th>reads</th><th>made (UTC)</th><th></th></tr>
          {tokens.map((token) => (
            <tr>
              <td>{token.name}</td>
              <td class="id">{token.players === null ? "every player" : token.players.join(", ")}</td>
              <td><Time ms={token.createdAt} /></td>
              <td>
                <form class="inline" method="post" action="/status/api-tokens/revoke">
                  <input type="hidden" name="name" value={token.name} />
                  <button type="submit">revoke</button>
                </form>
              </td>
            </tr>
          ))}
        </table>
      </div>
      <form method="post" action="/status/api-tokens" class="new-token">
        <label>New token name <input name="name" required pattern="[A-Za-z0-9_.\-]{1,64}" placeholder="lunabot" /></label>
        <label>Only these players (ids, comma-separated; empty: every player) <input name="players" inputmode="numeric" placeholder="every player" /></label>
        <button type="submit">Make a token</button>
      </form>
      <p class="muted">
        Consumer webhooks: {hooks.length === 0 ? "none (cli data-webhooks add)." : hooks.map((hook) => `${hook.id} → ${dataWebhookOrigin(hook.url)}`).join(", ")}
      </p>
    </Section>
  );
}

export function dataApiRoutes(deps: HttpDeps, owner: MiddlewareHandler): Hono {
  const { access } = deps.owner;
  const app = new Hono();
  app.post("/status/api-tokens", owner, async (c) => {
    const form = await formFields(c);
    if (form === "too_large") return c.text("form too large", 413);
    const name = form.get("name")?.trim() ?? "";
    const players = (form.get("players") ?? "").replace(/\s+/g, "");
    const ids = players === "" ? null : players.split(",");
    if (!API_TOKEN_NAME.test(name)) return c.text("a token name is 1 to 64 letters, digits, '.', '_' or '-'", 400);
    if (ids !== null && (ids.length > MAX_PLAYERS || !ids.every((id) => PLAYER_ID_SHAPE.test(id)))) return c.text(`players are numeric ids, comma-separated (at most ${MAX_PLAYERS})`, 400);
    const token = await access.addApiToken(name, ids);
    logInfo("API", "API token made on the status page", { name });
    const page = (
      <Layout title="MySekai ingest · new API token">
        <h1>API token {name}</h1>
        <p>Copy it now: it is shown only this once (the server keeps only its hash).</p>
        <p><code class="token">{token}</code></p>
        <p>Reads {ids === null ? "every player" : ids.join(", ")}. <a href="/">Back to the status page</a></p>
      </Layout>
    );
    return c.html(page, 200, NO_STORE);
  });
  app.post("/status/api-tokens/revoke", owner, async (c) => {
    const form = await formFields(c);
    if (form === "too_large") return c.text("form too large", 413);
    const name = form.get("name") ?? "";
    if (!API_TOKEN_NAME.test(name)) return c.text("no such token", 400);
    if (await access.revokeApiToken(name)) logInfo("API", "API token revoked on the status page", { name });
    return c.redirect("/", 303);
  });
  return app;
}

export const dataApiView = async ({ owner }: HttpDeps) => ({ tokens: await owner.access.listApiTokens(), hooks: await owner.webhooks.list() });
