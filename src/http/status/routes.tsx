/** @jsxImportSource hono/jsx */
/**
 * The owner's view: GET / (status page), GET /players/<id> (one player's history), POST /status/retry, the
 * login form and logout, and GET /metrics, all behind the access rule (admin/access.ts). The pages only read
 * (deps.pages); the retry button calls the queue's owner operation.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { logInfo } from "../../log.ts";
import { redact } from "../../notify/errors.ts";
import { fromThisOrigin, loginThrottled, ownerOnly, recordLogin, type OwnerGate } from "../admin/access.ts";
import type { HttpDeps } from "../deps.ts";
import { metricsRoute } from "../health.ts";
import { pageLang, pageText } from "../page-lang.ts";
import { tokenMatches } from "../token.ts";
import { Layout } from "./layout.tsx";
import { afterLogin, LoginPage, loginInstead } from "./login.tsx";
import { Banners, serviceBanners } from "./banners.tsx";
import { CatalogueSection } from "./catalogue.tsx";
import { stillUnknown } from "../../maps/catalog.ts";
import { UNKNOWN_RESOURCE_DAYS } from "../../store/model/pages.ts";
import { DataApiSection, dataApiRoutes, dataApiView } from "./data-api.tsx";
import { formFields, MAX_FORM_BYTES } from "./form.ts";
import { playerPagePath, playerPageRoutes } from "./player-page.tsx";
import { FailuresSection, MapsSection, OverviewSection, ReportsSection, SavesSection, type PlayerNames } from "./sections.tsx";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A form field; "too_large" for a body past the cap (never mistaken for an absent field). */
async function formField(c: Context, name: string): Promise<string | null | "too_large"> {
  const form = await formFields(c);
  return form === "too_large" ? form : form.get(name);
}

/** `gate` is shared with the other owner pages (the setup page), so one login opens them all. */
export function statusRoutes(deps: HttpDeps, gate: OwnerGate): Hono {
  const { config, pages } = deps;
  const app = new Hono();
  const loginPage = (c: Context, wrong = false) => loginInstead(c, config, wrong);
  const owner = ownerOnly(config.admin, gate, loginPage);
  const { sessions } = gate;
  const { secrets } = deps;
  const redactText = (text: string | null) => (text === null ? "" : redact(text, secrets));
  const noStore = { "Cache-Control": "no-store" };

  app.get("/", owner, async (c) => {
    const now = Date.now();
    const dataApi = await dataApiView(deps);
    const [counts, queue, databaseBytes, maps, recent, jobs, deliveries, retryingJobs, retryingDeliveries, reports, linked, unknown] = await Promise.all([
      pages.countsSince(now - DAY_MS),
      pages.queueSnapshot(now),
      pages.databaseBytes(),
      pages.latestMaps(),
      pages.recentSaves(),
      pages.failedJobs(),
      pages.failedDeliveries(),
      pages.retryingJobs(),
      pages.retryingDeliveries(),
      pages.recentReports(),
      deps.owner.links.linkedPlayers(),
      pages.unknownResourcesSince(now - UNKNOWN_RESOURCE_DAYS * DAY_MS),
    ]);
    const names: PlayerNames = new Map(linked.flatMap((player) => (player.name === null ? [] : [[player.playerId, player.name] as const])));
    const overview = { counts, queue, databaseBytes, disk: deps.disk.reading(), floorBytes: deps.disk.floorBytes };
    const lang = pageLang(c, config, undefined, recent[0]);
    const { t } = lang;
    const page = (
      <Layout title={null} lang={lang}>
        <header>
          <h1>{t.appName}</h1>
          <a href="/setup">{t.setupLink}</a>
          {config.admin.token === null ? null : (
            <form class="inline" method="post" action="/logout">
              <button type="submit">{t.logOut}</button>
            </form>
          )}
          {config.admin.token === null ? null : (
            <form class="inline" method="post" action="/logout/everywhere">
              <button type="submit">{t.logOutEverywhere}</button>
            </form>
          )}
        </header>
        <Banners banners={serviceBanners(deps, t, stillUnknown(unknown).length)} />
        <OverviewSection {...overview} lang={lang} />
        <MapsSection players={maps} playerHref={playerPagePath} names={names} lang={lang} />
        <SavesSection rows={recent} names={names} lang={lang} />
        <FailuresSection jobs={jobs} deliveries={deliveries} retrying={{ jobs: retryingJobs, deliveries: retryingDeliveries }} redact={redactText} lang={lang} />
        <ReportsSection rows={reports} lang={lang} />
        <DataApiSection {...dataApi} lang={lang} />
        <CatalogueSection lang={lang} />
      </Layout>
    );
    return c.html(page, 200, noStore);
  });

  app.post("/status/retry", owner, async (c) => {
    const t = pageText(c, config);
    const field = await formField(c, "save");
    if (field === "too_large") return c.text(t.errFormBytes(MAX_FORM_BYTES), 413);
    if (field !== null && !/^\d{1,15}$/.test(field)) return c.text(t.errSaveId, 400);
    const saveId = field === null ? undefined : Number(field);
    const retried = await deps.jobs.retryFailed(Date.now(), saveId);
    logInfo("JOB", "owner retry from the status page", { save: saveId, jobs: retried.jobs, deliveries: retried.deliveries });
    deps.wakePipelineFor(retried.jobs);
    return c.redirect("/", 303);
  });

  app.get("/login", async (c) => (config.admin.token === null || (await sessions.valid(c)) ? c.redirect("/", 303) : c.html(<LoginPage wrong={false} lang={pageLang(c, config, "/login")} />, 200, noStore)));
  app.post("/login", async (c) => {
    if (config.admin.token === null) return c.redirect("/", 303);
    if (!fromThisOrigin(c)) return c.text(pageText(c, config).errCrossSite, 403);
    const throttled = await loginThrottled(c, gate);
    if (throttled !== null) return throttled;
    const token = await formField(c, "token");
    const right = token !== null && token !== "too_large" && tokenMatches(token, config.admin.token);
    await recordLogin(c, gate, right);
    if (!right) return loginPage(c, true);
    await sessions.open(c);
    return c.redirect(afterLogin(c), 303);
  });
  app.post("/logout", owner, async (c) => {
    await sessions.close(c);
    return c.redirect("/login", 303);
  });
  app.post("/logout/everywhere", owner, async (c) => {
    const ended = await sessions.closeAll(c);
    logInfo("SERVER", "owner logged out everywhere", { sessions: ended });
    return c.redirect("/login", 303);
  });

  app.route("/", dataApiRoutes(deps, owner));
  app.route("/", playerPageRoutes(deps, owner));
  app.use("/metrics", owner);
  app.route("/", metricsRoute(deps));
  return app;
}
