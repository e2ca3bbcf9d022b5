/**
 * Which watched resources a refresh holds, and where: from the stored outputs model, per site (a push in
 * `watched` mode names each and carries the maps of their sites).
 */
import type { SaveOutputs } from "../maps/save-outputs.ts";
import { knownSiteName, type Locale } from "../maps/catalog.ts";
import { ruleName } from "./resources.ts";
import type { WatchMatch } from "../store/model/watch.ts";


/** Matches in the outputs' importance order, one per resource and site. */
export function watchMatches(outputs: SaveOutputs, watched: ReadonlySet<string>): WatchMatch[] {
  if (outputs.partial || watched.size === 0) return [];
  const siteNames = new Map(outputs.sites.map((site) => [site.siteId, site.name]));
  const matches: WatchMatch[] = [];
  for (const total of outputs.totals) {
    if (!watched.has(total.resource.key)) continue;
    const perSite = new Map<number, number>();
    for (const p of total.positions) perSite.set(p.siteId, (perSite.get(p.siteId) ?? 0) + p.quantity);
    for (const [siteId, count] of [...perSite].sort((a, b) => a[0] - b[0])) {
      if (count > 0) matches.push({ resource: total.resource.key, name: total.resource.name, siteId, siteName: siteNames.get(siteId) ?? `Site ${siteId}`, count });
    }
  }
  return matches;
}

/**
 * "Diamond ×3 · Wisher's Cove": what a push's first line and the history's chips say of one match; with `locale`
 * (a page's language) the names are that language's, else the map's as stored.
 */
export function matchText(match: WatchMatch, locale?: Locale): string {
  if (locale === undefined) return `${match.name} ×${match.count} · ${match.siteName}`;
  return `${ruleName(match.resource, locale)} ×${match.count} · ${knownSiteName(match.siteId, locale) ?? match.siteName}`;
}
