/** @jsxImportSource hono/jsx */
/**
 * A player's watch list on their page: a checkbox per rare and birthday resource, no script; POST
 * /p/<token>/watch sets exactly the ticked ones among those offered (rules the owner added by CLI for other
 * resources stay).
 */
import type { CatalogResource } from "../../maps/catalog.ts";
import { pickName } from "../../maps/catalog.ts";
import { resourceKey } from "../../save/model.ts";
import { ruleName, watchableResources } from "../../watch/resources.ts";
import type { Messages } from "../../i18n/messages/index.ts";
import type { PageLang } from "../page-lang.ts";
import { EVERY_PLAYER } from "../../store/ports/watch.ts";
import type { HttpDeps } from "../deps.ts";
import type { PastRefresh } from "../../store/model/pages.ts";

const CSS = `.watch details{margin:6px 0;border-top:1px solid #eee;padding-top:6px}.watch summary{font-weight:600;font-size:14px;padding:6px 0;cursor:pointer}
.watch .ticks{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:0 12px}
.watch label{display:flex;gap:8px;align-items:center;padding:5px 0;min-height:32px}.watch input[type=checkbox]{width:20px;height:20px;margin:0;flex:none}`;

/** Birthday materials: the celebration flowers, and the festival dews (material 174 onwards; 17, 170 and 173 are other items). */
const isBirthday = (r: CatalogResource) => r.kind === "birthday_party" || (r.type === "material" && r.id >= 174);
const GROUPS: { legend: (t: Messages) => string; pick: (r: CatalogResource) => boolean }[] = [
  { legend: (t) => t.watchBirthday, pick: isBirthday },
  { legend: (t) => t.watchSuperRare, pick: (r) => r.tier === "super" && !isBirthday(r) },
  { legend: (t) => t.watchRare, pick: (r) => r.tier === "rare" },
];

/** The keys the form offers: the ones a submitted form may name. */
export const offeredKeys = () => watchableResources().map((r) => resourceKey(r.type, r.id) as string);

export function WatchSection({ path, lang: { t, locale }, own, everyone }: { path: string; lang: PageLang; own: Set<string>; everyone: string[] }) {
  const offered = new Set(offeredKeys());
  const others = [...own].filter((key) => !offered.has(key));
  return (
    <section class="watch" id="watch">
      <style>{CSS}</style>
      <h2>{t.watchHeading}</h2>
      <p class="muted">{t.watchIntro}</p>
      {everyone.length > 0 ? <p>{t.watchEveryone} {everyone.map((key) => ruleName(key, locale)).join(", ")}</p> : null}
      {others.length > 0 ? <p>{t.watchOthers} {others.map((key) => ruleName(key, locale)).join(", ")}</p> : null}
      <form method="post" action={`${path}/watch`}>
        {GROUPS.map((group) => {
          const members = watchableResources().filter(group.pick);
          const ticked = members.filter((r) => own.has(resourceKey(r.type, r.id))).length;
          return (
            <details open={ticked > 0}>
              <summary>{`${group.legend(t)} · ${ticked}/${members.length}`}</summary>
              <div class="ticks">
                {members.map((r) => (
                  <label>
                    <input type="checkbox" name="w" value={resourceKey(r.type, r.id)} checked={own.has(resourceKey(r.type, r.id))} />
                    <span>{pickName(r.name, locale) ?? resourceKey(r.type, r.id)}</span>
                  </label>
                ))}
              </div>
            </details>
          );
        })}
        <button type="submit">{t.watchSave}</button>
      </form>
    </section>
  );
}

/** What the player's page shows of watching: their rules, everyone's, and each listed refresh's matches. */
export async function playerWatchView(deps: Pick<HttpDeps, "watch">, playerId: string, history: PastRefresh[]) {
  const [own, everyone, matches] = await Promise.all([
    deps.watch.list(playerId),
    deps.watch.list(EVERY_PLAYER),
    deps.watch.matchesOf(history.map((refresh) => refresh.saveId)),
  ]);
  return {
    own: new Set(own.map((rule) => rule.resource)),
    everyone: everyone.map((rule) => rule.resource),
    matches,
  };
}
