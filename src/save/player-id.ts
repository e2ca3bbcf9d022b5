/** The player id is the path segment after `/user/`, digits only; anything else is `unknown`. */
export const UNKNOWN_PLAYER = "unknown";

export function playerIdFromUrl(url: string | null | undefined): string {
  if (!url) return UNKNOWN_PLAYER;
  const match = /\/user\/([^/?#]+)/.exec(url);
  const segment = match?.[1];
  return segment && /^\d{1,32}$/.test(segment) ? segment : UNKNOWN_PLAYER;
}
