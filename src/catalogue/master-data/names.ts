/**
 * Names in the five catalogue languages. Each is read from its own server's master data; when that server has
 * not released the id yet, a birthday flower or dew is composed from the server's own parts (its character
 * names and memoria colours, in the pattern of a flower or dew it already names), else the name made here in
 * curation.ts is used. Every name not read directly is listed in the entry's `composed` or `translated`.
 */
import { EN_TEMPLATES, TRANSLATED_HERE } from "./curation.ts";
import { LANG_REGION, NAME_LANGS, text, type NameLang, type Region, type Server } from "./read.ts";

export type Servers = Record<Region, Server>;
export interface Names {
  name: Record<NameLang, string>;
  composed?: NameLang[];
  translated?: NameLang[];
}

export type Series = "flower" | "dew";
export interface SeriesMember {
  series: Series;
  characterId: number;
}

const usedTranslations = new Set<string>();

function givenName(server: Server, characterId: number): string | null {
  return text(server.rows("gameCharacters.json").get(characterId), "givenName");
}

const coloursByServer = new WeakMap<Server, Map<number, string>>();

/** Memoria colour per character: the memoria name without the affix all 26 share (記憶, メモリア, " Memoria" ...). */
function memoriaColours(server: Server): Map<number, string> {
  const known = coloursByServer.get(server);
  if (known) return known;
  const colours = readMemoriaColours(server);
  coloursByServer.set(server, colours);
  return colours;
}

function readMemoriaColours(server: Server): Map<number, string> {
  const materials = server.rows("mysekaiMaterials.json");
  const pairs: [number, string][] = [];
  for (const rel of server.rows("mysekaiMaterialGameCharacterRelations.json").values()) {
    const name = text(materials.get(rel.mysekaiMaterialId as number), "name");
    if (name) pairs.push([rel.gameCharacterId as number, name]);
  }
  const names = pairs.map(([, n]) => n);
  if (names.length < 2) return new Map();
  let prefix = names[0]!;
  let suffix = names[0]!;
  for (const n of names) {
    while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
    while (!n.endsWith(suffix)) suffix = suffix.slice(1);
  }
  return new Map(pairs.map(([id, n]) => [id, n.slice(prefix.length, n.length - suffix.length).trim()]));
}

function seriesPart(server: Server, member: SeriesMember): string | null {
  return member.series === "flower" ? givenName(server, member.characterId) : (memoriaColours(server).get(member.characterId) ?? null);
}

/** The series' pattern as the server itself writes it, from a member it already names. */
function serverTemplate(server: Server, series: Series, members: Map<string, SeriesMember>, read: (s: Server, key: string) => string | null): string | null {
  for (const [key, member] of members) {
    if (member.series !== series) continue;
    const name = read(server, key);
    const part = seriesPart(server, member);
    if (name && part && name.includes(part)) return name.replace(part, "{}");
  }
  return null;
}

export function buildNames(
  key: string,
  servers: Servers,
  read: (server: Server, key: string) => string | null,
  members: Map<string, SeriesMember>,
): Names {
  const name = {} as Record<NameLang, string>;
  const composed: NameLang[] = [];
  const translated: NameLang[] = [];
  const member = members.get(key);
  for (const lang of NAME_LANGS) {
    const server = servers[LANG_REGION[lang]];
    const direct = read(server, key);
    if (direct) {
      name[lang] = direct;
      continue;
    }
    const part = member ? seriesPart(server, member) : null;
    const own = member ? serverTemplate(server, member.series, members, read) : null;
    const here = TRANSLATED_HERE[key]?.[lang];
    if (part && own) {
      name[lang] = own.replace("{}", part);
      composed.push(lang);
    } else if (member && part && lang === "en") {
      name[lang] = EN_TEMPLATES[member.series].replace("{}", part);
      translated.push(lang);
    } else if (here) {
      name[lang] = here;
      translated.push(lang);
      usedTranslations.add(`${key}/${lang}`);
    } else {
      throw new Error(`${key}: no ${lang} name in ${server.repo} and none in scripts/master-data/curation.ts`);
    }
  }
  return { name, ...(composed.length ? { composed } : {}), ...(translated.length ? { translated } : {}) };
}

/** Names made here that master data now has (or that name nothing): delete them from curation.ts. */
export function unusedTranslations(): string[] {
  return Object.entries(TRANSLATED_HERE).flatMap(([key, names]) =>
    Object.keys(names).filter((lang) => !usedTranslations.has(`${key}/${lang}`)).map((lang) => `${key}/${lang}`),
  );
}
