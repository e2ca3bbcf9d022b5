/** POST /p/<token>/watch and /p/<token>/nudge: the player's own forms on their page, same-origin only like the page's other forms. */
import { Hono, type Context } from "hono";
import type { Messages } from "../../i18n/messages/index.ts";
import { logInfo } from "../../log.ts";
import { DEFAULT_NUDGE_HOURS } from "../../nudge/run.ts";
import { fromThisOrigin } from "../admin/access.ts";
import type { HttpDeps } from "../deps.ts";
import { pageText } from "../page-lang.ts";
import { formFields } from "../status/form.ts";
import { offeredKeys } from "./section.tsx";
import type { LinkedPlayer } from "../../store/model/owner.ts";

type PlayerForm = { linked: LinkedPlayer; form: URLSearchParams; t: Messages };

/** The player whose link the path names and their form, or the refusal (unknown link, another site, too large). */
async function playerForm(c: Context, { owner, config }: HttpDeps): Promise<PlayerForm | Response> {
  const t = pageText(c, config);
  const linked = await owner.links.playerByToken(c.req.param("token") ?? "");
  if (linked === null) return c.text(t.errNotFound, 404);
  if (!fromThisOrigin(c)) return c.text(t.errCrossSite, 403);
  const form = await formFields(c);
  if (form === "too_large") return c.text(t.errFormTooLarge, 413);
  return { linked, form, t };
}

export function watchRoutes(deps: HttpDeps): Hono {
  const { watch, nudges } = deps;
  const app = new Hono();
  app.post("/p/:token/watch", async (c) => {
    const got = await playerForm(c, deps);
    if (got instanceof Response) return got;
    const { linked, form, t } = got;
    const offered = offeredKeys();
    const ticked = form.getAll("w");
    if (ticked.some((key) => !offered.includes(key))) return c.text(t.errWatchForm, 400);
    await watch.setTicked(linked.playerId, offered, ticked);
    logInfo("API", "watch list set by the player", { player: linked.playerId, watched: ticked.length });
    return c.redirect(`/p/${linked.token}#watch`, 303);
  });
  app.post("/p/:token/nudge", async (c) => {
    const got = await playerForm(c, deps);
    if (got instanceof Response) return got;
    const { linked, form, t } = got;
    const on = form.get("on");
    if (on !== "1" && on !== "0") return c.text(t.errOnOff, 400);
    const current = await nudges.nudgePlayer(linked.playerId);
    await nudges.setNudge(linked.playerId, on === "1" ? (current?.hours ?? DEFAULT_NUDGE_HOURS) : null);
    logInfo("API", "nudges switched by the player", { player: linked.playerId, on: on === "1" });
    return c.redirect(`/p/${linked.token}#nudges`, 303);
  });
  return app;
}
