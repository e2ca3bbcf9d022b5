/** What the watch tables hold beside the rules' `type:id` text: the cap on a player's rules and a refresh's matches. */

/** Rules a player may hold (the owner's `*` rules apart): far above the catalogue's rare and birthday resources. */
export const MAX_RULES = 200;

/** A watched resource a refresh holds on one site (watch_matches.matches). */
export interface WatchMatch {
  /** `type:id`. */
  resource: string;
  /** Its name in the map's language. */
  name: string;
  siteId: number;
  siteName: string;
  /** Drops not yet harvested on that site. */
  count: number;
}
