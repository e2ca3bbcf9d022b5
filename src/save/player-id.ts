/** The player id is the path segment after `/user/`, digits only; anything else is `unknown`. */
export const UNKNOWN_PLAYER = "unknown";

export function playerIdFromUrl(url: string | null | undefined): string {
  if (!url) return UNKNOWN_PLAYER;
  const match = /\/user\/([^/?#]+)/.exec(url);
  const segment = match?.[1];
  return segment && /^\d{1,32}$/.test(segment) ? segment : UNKNOWN_PLAYER;
}

/**
 * Why a named player id is refused, or null: the game's ids never start with 0, and `0123…` would otherwise be a
 * second player beside `123…` (saves, page, pushes and link-only state of its own). `0` alone stands for no other.
 */
export function refusedPlayerId(playerId: string): string | null {
  return /^0\d+$/.test(playerId) ? `player id ${playerId} starts with 0: the game's player ids never do` : null;
}
