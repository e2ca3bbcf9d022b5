/** @jsxImportSource hono/jsx */
/**
 * A player's watch list on their page: a checkbox per rare and birthday resource, no script; POST
 * /p/<token>/watch sets exactly the ticked ones among those offered (rules the owner added by CLI for other
 * resources stay).
 */
import type { Locale } from "../../maps/catalog.ts";
import { pickName } from "../../maps/catalog.ts";
import { resourceKey } from "../../save/model.ts";
import { ruleName, watchableResources } from "../../watch/resources.ts";
import { WATCH_STRINGS as S } from "./strings.ts";
import { mapLocaleFor } from "../../config/maps.ts";
import type { PastRefresh } from "../../db/player-history.ts";
import { EVERY_PLAYER } from "../../watch/store.ts";
import type { HttpDeps } from "../deps.ts";

const CSS = `.watch fieldset{border:0;padding:0;margin:8px 0}.watch legend{font-weight:600;font-size:14px;margin-bottom:4px}
.watch .ticks{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:2px 12px}
.watch label{display:flex;gap:8px;align-items:center;padding:5px 0;min-height:32px}.watch input[type=checkbox]{width:20px;height:20px;margin:0;flex:none}`;

const GROUPS = [
  { legend: S.birthday, pick: (kind: string) => kind === "birthday_party" || kind === "material" },
  { legend: S.superRare, pick: (kind: string, tier: string) => tier === "super" && kind !== "birthday_party" && kind !== "material" },
  { legend: S.rare, pick: (kind: string, tier: string) => tier === "rare" },
];

/** The keys the form offers: the ones a submitted form may name. */
export const offeredKeys = () => watchableResources().map((r) => resourceKey(r.type, r.id) as string);

export function WatchSection({ path, locale, own, everyone }: { path: string; locale: Locale; own: Set<string>; everyone: string[] }) {
  const offered = new Set(offeredKeys());
  const others = [...own].filter((key) => !offered.has(key));
  return (
    <section class="watch" id="watch">
      <style>{CSS}</style>
      <h2>{S.heading}</h2>
      <p class="muted">{S.intro}</p>
      {everyone.length > 0 ? <p>{S.everyone} {everyone.map((key) => ruleName(key, locale)).join(", ")}</p> : null}
      {others.length > 0 ? <p>{S.others} {others.map((key) => ruleName(key, locale)).join(", ")}</p> : null}
      <form method="post" action={`${path}/watch`}>
        {GROUPS.map((group) => (
          <fieldset>
            <legend>{group.legend}</legend>
            <div class="ticks">
              {watchableResources()
                .filter((r) => group.pick(r.kind, r.tier))
                .map((r) => {
                  const key = resourceKey(r.type, r.id);
                  return (
                    <label>
                      <input type="checkbox" name="w" value={key} checked={own.has(key)} />
                      <span>{pickName(r.name, locale) ?? key}</span>
                    </label>
                  );
                })}
            </div>
          </fieldset>
        ))}
        <button type="submit">{S.save}</button>
      </form>
    </section>
  );
}

/** What the player's page shows of watching: their rules, everyone's, and each listed refresh's matches. */
export async function playerWatchView(deps: Pick<HttpDeps, "watch" | "config">, playerId: string, history: PastRefresh[]) {
  const [own, everyone, matches] = await Promise.all([
    deps.watch.list(playerId),
    deps.watch.list(EVERY_PLAYER),
    deps.watch.matchesOf(history.map((refresh) => refresh.saveId)),
  ]);
  return {
    locale: mapLocaleFor(deps.config.maps, null) as Locale,
    own: new Set(own.map((rule) => rule.resource)),
    everyone: everyone.map((rule) => rule.resource),
    matches,
  };
}
