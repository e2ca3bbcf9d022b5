/** The owner's and players' records (API tokens, players' links, lunabot's lists, the login throttle), in plain TypeScript. */

/** What a token's name and its grant's player ids look like (the CLI and the status page check both). */
export const API_TOKEN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
export const PLAYER_ID_SHAPE = /^\d{1,32}$/;
/** What a setup token or a player's link token looks like (anything else is never looked up). */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export interface ApiToken {
  name: string;
  /** null: every player of this server. */
  players: string[] | null;
  createdAt: number;
}

export interface LinkedPlayer {
  playerId: string;
  name: string | null;
  /** The link's token; null when the link key that sealed it is not this process's (rotate the link to see one). */
  token: string | null;
  createdAt: number;
  /** Since when uploads for this player are taken only through their link (null: tokenless ones are still taken). */
  linkOnlySince: number | null;
}

export interface LoginFailures {
  failures: number;
  lastFailure: number;
}

export type SubscribedPair = { uid: string; mode: string };
export interface SubscriptionList {
  pairs: SubscribedPair[];
  /** The address the list came from, and its length in bytes as sent. */
  peer: string;
  bytes: number;
}
export interface MsrSubscription extends SubscriptionList {
  /** When it was last PUT. */
  at: number;
}
