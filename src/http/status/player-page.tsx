/** @jsxImportSource hono/jsx */
/** The owner's page of one player, GET /players/<playerId>: their latest maps and their last 30 days. */
import { Hono, type MiddlewareHandler } from "hono";
import type { HttpDeps } from "../deps.ts";
import { pageLang } from "../page-lang.ts";
import { HistorySection } from "./history.tsx";
import { Layout } from "./layout.tsx";
import { PartyProgressSection } from "./party-progress.tsx";
import { MapsSection } from "./sections.tsx";
import { playerWatchView } from "../watch/section.tsx";
import { spawnRoutes, SpawnsSection } from "../watch/spawns.tsx";
import { PLAYER_ID_SHAPE } from "../../store/model/owner.ts";

/** Where the owner's pages link a player id to. */
export const playerPagePath = (playerId: string) => `/players/${playerId}`;

export function playerPageRoutes(deps: HttpDeps, owner: MiddlewareHandler): Hono {
  const { pages, config, owner: store } = deps;
  const app = new Hono();
  app.get("/players/:playerId", owner, async (c) => {
    const lang = pageLang(c, config);
    const playerId = c.req.param("playerId");
    if (!PLAYER_ID_SHAPE.test(playerId)) return c.text(lang.t.errPlayerId, 400);
    const [linked, maps, history] = await Promise.all([store.links.linkedPlayer(playerId), pages.mapsOfPlayer(playerId), pages.history(playerId)]);
    const name = linked?.name ?? null;
    const [{ matches }, spawns] = await Promise.all([playerWatchView(deps, playerId, history), deps.spawns.spots(playerId)]);
    const page = (
      <Layout title={name ?? playerId} lang={lang}>
        <header>
          <h1 translate="no">{name ?? playerId}</h1>
          <a href="/">{lang.t.statusLink}</a>
        </header>
        {name === null ? null : <p class="muted id" translate="no">{playerId}</p>}
        <MapsSection players={maps} lang={lang} />
        <PartyProgressSection refreshes={history} lang={lang} />
        <HistorySection refreshes={history} lang={lang} watched={matches} />
        <SpawnsSection base={`${playerPagePath(playerId)}/spawns`} spots={spawns} lang={lang} />
      </Layout>
    );
    return c.html(page, 200, { "Cache-Control": "no-store" });
  });
  app.route("/", spawnRoutes(deps, owner));
  return app;
}
