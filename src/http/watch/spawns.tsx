/** @jsxImportSource hono/jsx */
/**
 * The month of rare spawns on the player's page and the owner's player page: one image per site with a rare find
 * (GET <page>/spawns/site_<id>.png, drawn on demand and cached until the next save).
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { PLAYER_ID_SHAPE } from "../../db/data-access.ts";
import type { Locale } from "../../maps/catalog.ts";
import { siteName } from "../../maps/catalog.ts";
import type { SpawnSpot } from "../../spawns/collect.ts";
import { SPAWN_STRINGS as S } from "../../spawns/strings.ts";
import type { HttpDeps } from "../deps.ts";

const FILE = /^site_(\d{1,3})\.png$/;

export function SpawnsSection({ base, spots, locale }: { base: string; spots: Map<number, SpawnSpot[]>; locale: Locale }) {
  return (
    <section id="spawns">
      <h2>{S.heading}</h2>
      <p class="muted">{spots.size === 0 ? S.none : S.intro}</p>
      <style>{".spawns{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:8px}.spawns img{display:block;width:100%;height:auto;border-radius:4px;border:1px solid #ddd}"}</style>
      <div class="spawns">
        {[...spots.keys()].map((siteId) => (
          <a href={`${base}/spawns/site_${siteId}.png`} target="_blank" rel="noopener">
            <img src={`${base}/spawns/site_${siteId}.png`} alt={siteName(siteId, locale)} loading="lazy" />
          </a>
        ))}
      </div>
    </section>
  );
}

async function servePng(c: Context, deps: HttpDeps, playerId: string, locale: Locale): Promise<Response> {
  const siteId = Number(FILE.exec(c.req.param("file") ?? "")?.[1] ?? Number.NaN);
  if (!Number.isInteger(siteId)) return c.text("not found", 404);
  const png = await deps.spawns.png(playerId, siteId, locale);
  if (png === null) return c.text("not found", 404);
  return c.body(png as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "image/png", "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" });
}

/** The images of both pages: the player's by their link, the owner's behind the owner's gate. */
export function spawnRoutes(deps: HttpDeps, owner: MiddlewareHandler, localeOf: (playerId: string) => Promise<Locale>): Hono {
  const app = new Hono();
  app.get("/p/:token/spawns/:file", async (c) => {
    const linked = await deps.owner.links.playerByToken(c.req.param("token"));
    if (linked === null) return c.text("not found", 404);
    return servePng(c, deps, linked.playerId, await localeOf(linked.playerId));
  });
  app.get("/players/:playerId/spawns/:file", owner, async (c) => {
    const playerId = c.req.param("playerId");
    if (!PLAYER_ID_SHAPE.test(playerId)) return c.text("a player id is 1 to 32 digits", 400);
    return servePng(c, deps, playerId, await localeOf(playerId));
  });
  return app;
}
