/**
 * What a watch rule names: any catalogue resource, by `type:id` or by its name in any of the catalogue's languages
 * (case, width and spacing ignored). Rules are stored as `type:id`, so a renamed resource stays watched.
 */
import { catalogResources, findResource, pickName, type CatalogResource, type Locale } from "../maps/catalog.ts";
import { resourceKey, type ResourceKey } from "../save/model.ts";

const TYPE_ID = /^([a-z_]{1,40}):(\d{1,6})$/;

const fold = (text: string) => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

let byName: Map<string, CatalogResource[]> | undefined;
function namesIndex(): Map<string, CatalogResource[]> {
  if (byName) return byName;
  byName = new Map();
  for (const resource of catalogResources()) {
    const names = new Set(Object.values(resource.name as Record<string, string | undefined>).filter((n): n is string => !!n).map(fold));
    for (const name of names) byName.set(name, [...(byName.get(name) ?? []), resource]);
  }
  return byName;
}

/** What the owner typed and found nothing, or more than one, for (the CLI words it in the owner's language). */
export type UnresolvedResource = { kind: "not_in_catalogue" | "no_name"; text: string } | { kind: "ambiguous"; text: string; keys: string[] };
export type ResolvedResource = { ok: true; key: ResourceKey } | { ok: false; problem: UnresolvedResource };

/** A rule's resource from what the owner typed; the problem names what was wrong. */
export function resolveResource(spec: string): ResolvedResource {
  const text = spec.trim();
  const typeId = TYPE_ID.exec(text);
  if (typeId) {
    const found = findResource(typeId[1]!, Number(typeId[2]));
    return found ? { ok: true, key: resourceKey(found.type, found.id) } : { ok: false, problem: { kind: "not_in_catalogue", text } };
  }
  const matches = namesIndex().get(fold(text)) ?? [];
  if (matches.length === 1) return { ok: true, key: resourceKey(matches[0]!.type, matches[0]!.id) };
  if (matches.length === 0) return { ok: false, problem: { kind: "no_name", text: text.slice(0, 60) } };
  return { ok: false, problem: { kind: "ambiguous", text, keys: matches.map((m) => `${m.type}:${m.id}`) } };
}

/** What a player ticks on their page: the rare and super-rare resources (birthday materials among them). */
export function watchableResources(): readonly CatalogResource[] {
  return catalogResources().filter((resource) => resource.tier !== "common");
}

/** A stored rule's name in `locale`, or its key when the catalogue no longer knows it. */
export function ruleName(key: string, locale: Locale): string {
  const typeId = TYPE_ID.exec(key);
  const found = typeId ? findResource(typeId[1]!, Number(typeId[2])) : null;
  return found ? (pickName(found.name, locale) ?? key) : key;
}

export const isRuleKey = (key: string): key is ResourceKey => TYPE_ID.test(key);
