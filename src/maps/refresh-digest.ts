/**
 * What a player's history shows of one refresh, kept with its archive (archives.digest): the rare finds, the
 * new songs and the sites' names. Small and bounded, so thirty days of history are read without the outputs
 * model, which the retention rule clears.
 */
import type { Tier } from "./catalog.ts";
import type { BirthdayPartyProgress } from "../save/model.ts";
import type { SaveOutputs } from "./save-outputs.ts";

/** Finds and songs kept per refresh; the rest are counted in `more`. Real refreshes have a handful. */
export const DIGEST_ENTRIES = 12;
/** Parties a digest keeps, the newest (highest ids) first: the player's page shows these; summary.json has them all. */
const DIGEST_PARTIES = 4;
const NAME_CHARS = 40;

export interface DigestFind {
  /** The resource, so a page names it in its reader's language (absent in digests kept before). */
  type?: string;
  id?: number;
  /** Its name in the maps' language. */
  name: string;
  tier: Exclude<Tier, "common">;
  total: number;
}

export interface DigestSong {
  id: number;
  /** null: the title data does not know the record. */
  title: string | null;
}

export interface RefreshDigest {
  /** No new harvest state (no maps were drawn): a refresh without harvest maps, or a party delivery that refreshed nothing. */
  partial: boolean;
  /** `userBirthdayParties` of the body, when it carried any (absent in digests kept before). */
  parties?: BirthdayPartyProgress[];
  /** Super-rare first, then rare, larger totals first. */
  rare: DigestFind[];
  newSongs: DigestSong[];
  /** Rare finds and new songs past DIGEST_ENTRIES. */
  more: number;
  /** The name of each site with a map, by site id: what the history's map links say. */
  sites: { siteId: number; name: string }[];
  /**
   * `type:id` of each resource on the maps the catalogue did not know when drawn (at most DIGEST_ENTRIES; absent in
   * digests kept before): what the owner's page and the player's capture health count.
   */
  unknown?: string[];
}

const clip = (text: string) => (text.length <= NAME_CHARS ? text : `${Array.from(text).slice(0, NAME_CHARS).join("")}…`);

/** `type:id` of every resource the catalogue does not know, once each (a party spawn of one counts once). */
export function unknownKeys(outputs: SaveOutputs): string[] {
  return [...new Set(outputs.totals.filter((t) => !t.resource.known).map((t) => t.resource.key))];
}

export function refreshDigest(outputs: SaveOutputs): RefreshDigest {
  const rare = outputs.rareFinds.map(({ resource, total }) => ({ type: resource.type, id: resource.id, name: clip(resource.name), tier: resource.tier as DigestFind["tier"], total }));
  const songs = outputs.totals
    .filter((t) => t.resource.musicRecord === "new")
    .map(({ resource }) => ({ id: resource.id, title: resource.title === null ? null : clip(resource.title) }));
  // Many rare finds never hide every new song.
  const keptSongs = songs.slice(0, DIGEST_ENTRIES / 2);
  const keptRare = rare.slice(0, DIGEST_ENTRIES - keptSongs.length);
  return {
    partial: outputs.partial,
    rare: keptRare,
    newSongs: keptSongs,
    more: rare.length + songs.length - keptRare.length - keptSongs.length,
    sites: outputs.partial ? [] : outputs.sites.map((site) => ({ siteId: site.siteId, name: clip(site.name) })),
    unknown: unknownKeys(outputs).slice(0, DIGEST_ENTRIES),
    ...(outputs.parties !== undefined && outputs.parties.length > 0 && { parties: [...outputs.parties].sort((a, b) => b.partyId - a.partyId).slice(0, DIGEST_PARTIES) }),
  };
}
