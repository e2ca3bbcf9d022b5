/** @jsxImportSource hono/jsx */
/**
 * Capture setup served by the server. Owner: GET /setup (the page) and POST /setup/rotate (new setup token).
 * Phone, by secret URL: GET /setup/<setupToken>/<region>/<file> (modules and upload scripts).
 * Hub player: GET /p/<playerToken> (their maps, their last 30 days, setup and public-reads switch), POST /p/<playerToken>/public and
 * GET /p/<playerToken>/<region>/<file>.
 * A wrong, old or malformed token is a plain 404, the same as any unknown path.
 */
import { Hono, type Context } from "hono";
import { isRegion } from "../../capture/regions.ts";
import { mapLocaleFor } from "../../config/maps.ts";
import { localeOf } from "../../i18n/locales.ts";
import { parseSetupFile, setupFileText, type SetupFileOptions } from "../../capture/setup-files.ts";
import { logInfo } from "../../log.ts";
import { fromThisOrigin, ownerOnly, type OwnerGate } from "../admin/access.ts";
import type { HttpDeps } from "../deps.ts";
import type { Messages } from "../../i18n/messages/index.ts";
import { pageLang, pageText } from "../page-lang.ts";
import { Banners, setupBanners } from "../status/banners.tsx";
import { Layout } from "../status/layout.tsx";
import { loginInstead } from "../status/login.tsx";
import { firstSaveAnswer } from "./steps.tsx";
import { HistorySection } from "../status/history.tsx";
import { PartyProgressSection } from "../status/party-progress.tsx";
import { playerPagePath } from "../status/player-page.tsx";
import { MapsSection } from "../status/sections.tsx";
import { formFields } from "../status/form.ts";
import { setupChoice, SetupView } from "./page.tsx";
import { PublicReadsSection } from "./public-reads.tsx";
import { playerWatchView, WatchSection } from "../watch/section.tsx";
import { CaptureHealthSection } from "../watch/capture-health.tsx";
import { playerSpawnsBase, SpawnsSection } from "../watch/spawns.tsx";
import { NudgeSection } from "../watch/nudge-section.tsx";
import type { LinkedPlayer } from "../../store/model/owner.ts";

const NO_STORE = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };
const CONTENT_TYPES = { module: "text/plain; charset=utf-8", script: "application/javascript; charset=utf-8" };

/** Hub players' personal pages (made with `cli players add`), for the owner to hand out again. */
function PlayerLinks({ base, players, t }: { base: string; players: LinkedPlayer[]; t: Messages }) {
  return (
    <section>
      <h2>{t.playerLinks}</h2>
      {players.length === 0 ? (
        <p class="muted">
          {t.noPlayerLinks} <code translate="no">npm run cli -- players add &lt;playerId&gt; --name …</code>
        </p>
      ) : null}
      <ul translate="no">
        {players.map((player) => (
          <li>
            <a href={playerPagePath(player.playerId)}>{player.name ?? player.playerId}</a> <span class="muted">{player.playerId}</span>:{" "}
            {player.token === null ? (
              <span class="muted">
                {t.linkSealedElsewhere} <code>npm run cli -- players add {player.playerId}</code>
              </span>
            ) : (
              <a class="url" href={`${base}/p/${player.token}`}>{`${base}/p/${player.token}`}</a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function setupRoutes(deps: HttpDeps, gate: OwnerGate): Hono {
  const { config, pages } = deps;
  const { links, access } = deps.owner;
  const app = new Hono();
  const owner = ownerOnly(config.admin, gate, (c) => loginInstead(c, config));
  /** PUBLIC_BASE_URL, else the origin the request came to. */
  const baseUrl = (c: Context) => config.publicBaseUrl ?? new URL(c.req.url).origin;
  const notFound = (c: Context) => c.text(pageText(c, config).errNotFound, 404, NO_STORE);

  function serveFile(c: Context, where: Omit<SetupFileOptions, "locale">): Response {
    const region = c.req.param("region") ?? "";
    const file = parseSetupFile(c.req.param("file") ?? "");
    if (!isRegion(region) || file === null) return notFound(c);
    // The page's language it was installed from (?lang=), else its region's: a proxy app sends no useful Accept-Language.
    const locale = localeOf(c.req.query("lang") ?? "") ?? mapLocaleFor({ locale: null }, region);
    return c.body(setupFileText(file, region, { ...where, locale }), 200, { ...NO_STORE, "Content-Type": CONTENT_TYPES[file.kind] });
  }

  app.get("/setup", owner, async (c) => {
    const base = baseUrl(c);
    const { report } = config;
    const reporting = report.enabled ? { url: `${base}${report.path}`, token: report.token } : null;
    const lang = pageLang(c, config);
    const { t } = lang;
    const [[newest], setupToken] = await Promise.all([pages.recentSaves(1), links.setupToken()]);
    const choice = setupChoice(c.req.query(), lang.locale, newest?.region ?? null);
    const page = (
      <Layout title={t.setupLink} lang={lang}>
        <header>
          <h1>{t.captureSetup}</h1>
          <a href="/">{t.statusLink}</a>
        </header>
        <Banners banners={setupBanners(config, t)} />
        {setupToken === null ? (
          <Banners banners={[{ id: "setup-sealed-elsewhere", text: t.setupSealedElsewhere }]} />
        ) : (
          <SetupView root={`${base}/setup/${setupToken}`} choice={choice} path="/setup" report={reporting} t={t} locale={lang.locale} check={{ url: `/setup/first-save?since=${Date.now()}` }} />
        )}
        <section>
          <h2>{t.setupLinks}</h2>
          <p class="muted">{t.setupLinksHint}</p>
          <form method="post" action="/setup/rotate">
            <button type="submit">{t.newSetupToken}</button>
          </form>
        </section>
        <PlayerLinks base={base} players={await links.linkedPlayers()} t={t} />
      </Layout>
    );
    return c.html(page, 200, NO_STORE);
  });

  // What the setup views poll until the first save arrives: any player's on the owner's page, the player's own on theirs.
  app.get("/setup/first-save", owner, async (c) => {
    const [newest] = await pages.recentSaves(1);
    return c.json(firstSaveAnswer(c.req.query("since"), newest?.receivedAt ?? null), 200, NO_STORE);
  });
  app.get("/p/:token/first-save", async (c) => {
    const linked = await player(c);
    if (linked === null) return notFound(c);
    const { latest } = await deps.captureHealth.captureHealth(linked.playerId);
    return c.json(firstSaveAnswer(c.req.query("since"), latest?.receivedAt ?? null), 200, NO_STORE);
  });

  app.post("/setup/rotate", owner, async (c) => {
    await links.rotateSetupToken();
    logInfo("SERVER", "setup token rotated from the setup page");
    return c.redirect("/setup", 303);
  });

  app.get("/setup/:token/:region/:file", async (c) => {
    const given = c.req.param("token");
    if (!(await links.setupTokenMatches(given))) return notFound(c);
    const base = baseUrl(c);
    return serveFile(c, { root: `${base}/setup/${given}`, serverUrl: base, uploadToken: config.uploads.token ?? undefined });
  });

  const player = (c: Context) => links.playerByToken(c.req.param("token") ?? "");

  app.get("/p/:token", async (c) => {
    const linked = await player(c);
    if (linked === null) return notFound(c);
    const path = `/p/${linked.token}`;
    const [maps, history, on] = await Promise.all([pages.mapsOfPlayer(linked.playerId), pages.history(linked.playerId), access.isPlayerPublic(linked.playerId)]);
    const [health, watch, spawns, nudge] = await Promise.all([
      deps.captureHealth.captureHealth(linked.playerId),
      playerWatchView(deps, linked.playerId, history),
      deps.spawns.spots(linked.playerId),
      deps.nudges.nudgePlayer(linked.playerId),
    ]);
    const lang = pageLang(c, config);
    const { t } = lang;
    const setupDone = maps.length > 0 || health.latest !== null;
    const page = (
      <Layout title={t.yourMaps} lang={lang}>
        <h1 translate="no">{linked.name ?? linked.playerId}</h1>
        {/* The latest maps first: what a player opens the page for. */}
        <MapsSection players={maps} lang={lang} />
        <CaptureHealthSection health={health} lang={lang} />
        <PartyProgressSection refreshes={history} lang={lang} />
        <HistorySection refreshes={history} lang={lang} watched={watch.matches} />
        <SpawnsSection base={playerSpawnsBase(linked)} spots={spawns} lang={lang} />
        <WatchSection path={path} lang={lang} own={watch.own} everyone={watch.everyone} />
        <NudgeSection path={path} nudge={nudge} lang={lang} />
        <PublicReadsSection
          path={path}
          on={on}
          publicUrl={`${baseUrl(c)}/public/${health.latest?.region ?? config.api.defaultRegion}/mysekai/${linked.playerId}`}
          t={t}
        />
        {/* Folded once the player's saves arrive: then the setup is done. */}
        <details class="setup" id="capture-setup" open={!setupDone}>
          <summary>
            <h2>{t.captureSetup}</h2>
          </summary>
          <p id="link-only">{linked.linkOnlySince === null ? t.linkOnlyOff : t.linkOnlyOn}</p>
          <SetupView
            root={`${baseUrl(c)}${path}`}
            choice={setupChoice(c.req.query(), lang.locale, health.latest?.region ?? maps[0]?.region ?? null)}
            path={path}
            report={null}
            t={t}
            locale={lang.locale}
            check={setupDone ? null : { url: `${path}/first-save?since=${Date.now()}` }}
          />
        </details>
      </Layout>
    );
    return c.html(page, 200, NO_STORE);
  });

  app.post("/p/:token/public", async (c) => {
    const linked = await player(c);
    if (linked === null) return notFound(c);
    const t = pageText(c, config);
    if (!fromThisOrigin(c)) return c.text(t.errCrossSite, 403);
    const form = await formFields(c);
    if (form === "too_large") return c.text(t.errFormTooLarge, 413);
    const on = form.get("on");
    if (on !== "1" && on !== "0") return c.text(t.errOnOff, 400);
    await access.setPlayerPublic(linked.playerId, on === "1");
    logInfo("API", "public reads switched by the player", { player: linked.playerId, on: on === "1" });
    return c.redirect(`/p/${linked.token}`, 303);
  });

  // A player's script posts to /p/<token>/uploadSaveData (upload.ts): no UPLOAD_TOKEN in it, the link is the secret.
  app.get("/p/:token/:region/:file", async (c) => {
    const linked = await player(c);
    if (linked === null) return notFound(c);
    const root = `${baseUrl(c)}/p/${linked.token}`;
    return serveFile(c, { root, serverUrl: root });
  });
  return app;
}
