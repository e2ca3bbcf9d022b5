/** @jsxImportSource hono/jsx */
/**
 * The month of rare spawns on the player's page and the owner's player page: one image per site with a rare find,
 * drawn on demand and cached until the next save: GET /players/<id>/spawns/site_<id>.png (owner), and for the
 * player GET /spawns/<playerId>/<key>/site_<id>.png, whose key is their own (as maps have), not their page's token:
 * an image's address passed on opens nothing else. A new link gives a new key.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { Region } from "../../capture/regions.ts";
import { siteName } from "../../maps/catalog.ts";
import type { SpawnSpot } from "../../spawns/collect.ts";
import type { HttpDeps } from "../deps.ts";
import { pageText, type PageLang } from "../page-lang.ts";
import { HISTORY_DAYS } from "../../store/model/pages.ts";
import { PLAYER_ID_SHAPE, type LinkedPlayer } from "../../store/model/owner.ts";
import { sha256Hex } from "../../sha256.ts";
import { tokenMatches } from "../token.ts";

const FILE = /^site_(\d{1,3})\.png$/;
/** The site ids FILE names: an image is linked only for those (a save's site id may be anything). */
const servable = (siteId: number) => Number.isInteger(siteId) && siteId >= 0 && siteId <= 999;
/** The key of a player's spawn images: one-way from their link's token, so it tells nothing of it. */
const spawnKey = (linkToken: string) => sha256Hex(`spawn images\u0000${linkToken}`).slice(0, 32);
const KEY_SHAPE = /^[0-9a-f]{32}$/;

/** Where the player's page links its spawn images. */
export const playerSpawnsBase = (player: Pick<LinkedPlayer, "playerId"> & { token: string }) => `/spawns/${player.playerId}/${spawnKey(player.token)}`;

/** `base`: the folder of the images (the owner's page's, or the player's keyed one). */
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
            {[...spots.keys()].filter(servable).map((siteId) => (
              <a href={`${base}/site_${siteId}.png`} target="_blank" rel="noopener">
                <img src={`${base}/site_${siteId}.png`} alt={siteName(siteId, locale)} loading="lazy" />
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
  app.get("/spawns/:playerId/:key/:file", async (c) => {
    const { playerId, key } = c.req.param();
    const linked = PLAYER_ID_SHAPE.test(playerId) && KEY_SHAPE.test(key) ? await deps.owner.links.linkedPlayer(playerId) : null;
    if (linked?.token == null || !tokenMatches(key, spawnKey(linked.token))) return c.text(pageText(c, deps.config).errNotFound, 404);
    return servePng(c, deps, linked.playerId, await regionOf(linked.playerId));
  });
  app.get("/players/:playerId/spawns/:file", owner, async (c) => {
    const playerId = c.req.param("playerId");
    if (!PLAYER_ID_SHAPE.test(playerId)) return c.text(pageText(c, deps.config).errPlayerId, 400);
    return servePng(c, deps, playerId, await regionOf(playerId));
  });
  return app;
}
