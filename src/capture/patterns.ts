/**
 * The URL patterns of the capture modules: the MySekai save URL of a region, and the rewrite that makes the
 * game ask for the full payload. They are written to be valid in every proxy app and in JavaScript alike (no
 * inline flags, no commas or spaces, which the apps' line formats use as separators), so the tests run them.
 *
 * Save URL: https://<host>/api/user/<playerId>/mysekai?isForceAllReloadOnlyMysekai=True|False
 * (some clients spell the key isForceAllReloadOnlyMySekai). /api/user/<id>/mysekai/birthday-party/... also
 * contains "mysekai" and is not a save: the path must end at "mysekai" before the query.
 *
 * Birthday party delivery URL: https://<host>/api/user/<playerId>/mysekai/birthday-party/<partyId>/delivery[?…],
 * captured by a rule of its own (src/capture/data-types.ts tells the two apart on the server).
 */
import { REGION_HOSTS, type Region } from "./regions.ts";

export const FULL_PAYLOAD_KEY = "isForceAllReloadOnlyMysekai";

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A case-insensitive match of a word without the `i` flag: `ab` → `[aA][bB]`. */
export function caseless(word: string): string {
  return [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? escapeRegex(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join("");
}

function hostGroup(region: Region): string {
  return `(?:${REGION_HOSTS[region].map(escapeRegex).join("|")})`;
}

/** Everything up to and including `<key>=`; the key may come after other query parameters. */
function saveUrlPrefix(region: Region): string {
  return `https://${hostGroup(region)}/api/user/\\d+/mysekai\\?(?:.*&)?${caseless(FULL_PAYLOAD_KEY)}=`;
}

/** The region's MySekai save URL, with either value of the full-payload key. */
export function saveUrlPattern(region: Region): string {
  return `^${saveUrlPrefix(region)}(?:${caseless("true")}|${caseless("false")})(?:&|$)`;
}

/** The region's birthday party delivery URL, with or without a query. */
export function birthdayPartyUrlPattern(region: Region): string {
  return `^https://${hostGroup(region)}/api/user/\\d+/mysekai/birthday-party/[^/?]+/delivery(?:\\?.*)?$`;
}

/** The rewrite that turns `...=False` into `...=True` (the key keeps its spelling); `$1`/`$2` are its groups. */
export function fullPayloadRewrite(region: Region): { pattern: string; replacement: string } {
  return {
    pattern: `^(${saveUrlPrefix(region)})${caseless("false")}((?:&.*)?)$`,
    replacement: "$1True$2",
  };
}

/** The hosts to decrypt (MITM) for a region. */
export function mitmHosts(region: Region): readonly string[] {
  return REGION_HOSTS[region];
}
