/** @jsxImportSource hono/jsx */
/**
 * The month of rare spawns on the player's page and the owner's player page: one image per site with a rare find
 * (GET <page>/spawns/site_<id>.png, drawn on demand and cached until the next save).
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { Region } from "../../capture/regions.ts";
import { siteName } from "../../maps/catalog.ts";
import type { SpawnSpot } from "../../spawns/collect.ts";
import type { HttpDeps } from "../deps.ts";
import { pageText, type PageLang } from "../page-lang.ts";
import { HISTORY_DAYS } from "../../store/model/pages.ts";
import { PLAYER_ID_SHAPE } from "../../store/model/owner.ts";

const FILE = /^site_(\d{1,3})\.png$/;

export function SpawnsSection({ base, spots, lang: { t, locale } }: { base: string; spots: Map<number, SpawnSpot[]>; lang: PageLang }) {
  return (
    <section id="spawns">
      <h2>{t.spawnsHeading(HISTORY_DAYS)}</h2>
      <p class="muted">{spots.size === 0 ? t.spawnsNone(HISTORY_DAYS) : t.spawnsIntro(HISTORY_DAYS)}</p>
      <style>{".spawns{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:8px}.spawns img{display:block;width:100%;height:auto;border-radius:4px;border:1px solid #ddd}"}</style>
      {/* Folded: a site's month is a phone screen or more each; closed, its images are not even fetched. */}
      {spots.size === 0 ? null : (
        <details class="older">
          <summary>{t.spawnsShow(spots.size)}</summary>
          <div class="spawns">
            {[...spots.keys()].map((siteId) => (
              <a href={`${base}/spawns/site_${siteId}.png`} target="_blank" rel="noopener">
                <img src={`${base}/spawns/site_${siteId}.png`} alt={siteName(siteId, locale)} loading="lazy" />
              </a>
            ))}
          </div>
        </details>
      )}
    </section>
  );
}

async function servePng(c: Context, deps: HttpDeps, playerId: string, region: Region | null): Promise<Response> {
  const siteId = Number(FILE.exec(c.req.param("file") ?? "")?.[1] ?? Number.NaN);
  if (!Number.isInteger(siteId)) return c.text(pageText(c, deps.config).errNotFound, 404);
  const png = await deps.spawns.png(playerId, siteId, region);
  if (png === null) return c.text(pageText(c, deps.config).errNotFound, 404);
  return c.body(png as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "image/png", "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" });
}

/** The images of both pages: the player's by their link, the owner's behind the owner's gate; drawn like the player's maps, in their server's language and zone. */
export function spawnRoutes(deps: HttpDeps, owner: MiddlewareHandler): Hono {
  const regionOf = async (playerId: string) => (await deps.captureHealth.captureHealth(playerId)).latest?.region ?? deps.config.api.defaultRegion;
  const app = new Hono();
  app.get("/p/:token/spawns/:file", async (c) => {
    const linked = await deps.owner.links.playerByToken(c.req.param("token"));
    if (linked === null) return c.text(pageText(c, deps.config).errNotFound, 404);
    return servePng(c, deps, linked.playerId, await regionOf(linked.playerId));
  });
  app.get("/players/:playerId/spawns/:file", owner, async (c) => {
    const playerId = c.req.param("playerId");
    if (!PLAYER_ID_SHAPE.test(playerId)) return c.text(pageText(c, deps.config).errPlayerId, 400);
    return servePng(c, deps, playerId, await regionOf(playerId));
  });
  return app;
}
