/**
 * The game API hosts that serve the MySekai save, per region (copied from the shared capture-hosts facts,
 * gathered from public peer projects). A region may have two hosts: peers disagree or the region uses both,
 * so a capture module matches every host of its region.
 */
export const REGION_HOSTS = {
  jp: ["production-game-api.sekai.colorfulpalette.org"],
  en: ["n-production-game-api.sekai-en.com", "production-game-api.sekai.colorfulstage.com"],
  tw: ["mk-zian-obt-cdn.bytedgame.com", "prod-api.sekai-pl.com"],
  kr: ["mkkorea-obt-prod01-cdn.bytedgame.com", "prod-api.sekai-m.com"],
  cn: ["mkcn-prod-public-60001-1.dailygn.com", "mkcn-prod-public-60001-2.dailygn.com"],
} as const satisfies Record<string, readonly string[]>;

export type Region = keyof typeof REGION_HOSTS;

export const REGIONS = Object.keys(REGION_HOSTS) as Region[];

export function isRegion(value: string): value is Region {
  return Object.hasOwn(REGION_HOSTS, value);
}

/** The region whose game host served `url` (a capture URL), or null for another host or no URL. */
export function regionOfUrl(url: string | null | undefined): Region | null {
  if (!url) return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  return REGIONS.find((region) => (REGION_HOSTS[region] as readonly string[]).includes(host)) ?? null;
}
