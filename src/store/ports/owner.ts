/**
 * The owner's and players' tables as the routes and the CLI use them, async so that a hub's PostgreSQL can stand
 * behind them: each table's module in src/db/owner/ is written once for
 * both stores (wired in src/db/owner/sqlite.ts and pg.ts). Both pass
 * tests/contract/owner-store.*.contract.test.ts. One small interface per concern.
 */
import type { DataWebhook, DataWebhookCarries } from "../model/deliveries.ts";
import type { ApiToken, LinkedPlayer, LoginFailures } from "../model/owner.ts";

/**
 * The sessions as the store holds them, by the sha256 of the cookie's id (src/db/owner/sessions.ts). Bounded:
 * past MAX_SESSIONS the one closest to expiry goes.
 */
export interface SessionRecords {
  /** Records a session until `expiresAt`; expired ones go first. */
  open(idHash: string, expiresAt: number, now: number): Promise<void>;
  isOpen(idHash: string, now: number): Promise<boolean>;
  close(idHash: string): Promise<void>;
  /** Ends every session (`cli sessions end`, "log out everywhere"); how many there were. */
  closeAll(): Promise<number>;
  /**
   * At a start: ends every session if `adminToken` is not the one they were opened under (kept as a keyed
   * fingerprint), so that a token changed and changed back revives none; how many ended.
   */
  endIfTokenChanged(adminToken: string | null, now?: number): Promise<number>;
}

/**
 * Wrong tokens per peer as the store holds them (src/db/owner/login-failures.ts). Bounded: past MAX_PEERS the
 * peer that failed longest ago goes first.
 */
export interface LoginFailureRecords {
  of(peer: string): Promise<LoginFailures | undefined>;
  /**
   * Sets `peer`'s count to `count(its record)` at `now`, reading and writing as one step: guesses arriving at
   * once on several processes are each counted. Records whose last failure is before `forgetBefore` go first
   * (`count` sees none for such a peer).
   */
  record(peer: string, now: number, forgetBefore: number, count: (current: LoginFailures | undefined) => number): Promise<void>;
  clear(peer: string): Promise<void>;
}

/** The setup token of module and script URLs, and hub players' personal links (/p/<token>). */
export interface SetupLinks {
  /** The current setup token, made if there is none yet; null when another link key sealed it (rotate it). */
  setupToken(now?: number): Promise<string | null>;
  /** Whether `token` is the current setup token, matched on its sha256 (whatever key sealed it). */
  setupTokenMatches(token: string): Promise<boolean>;
  /** A new setup token: every URL made with the old one answers 404 from now on. */
  rotateSetupToken(now?: number): Promise<string>;
  /** Seals the clear tokens an older version stored (they keep working); how many. Run at start. */
  sealClearTokens(): Promise<number>;
  /** The PUBLIC_BASE_URL the service last started with (the CLI prints links under it). */
  recordServedBase(base: string, now?: number): Promise<void>;
  servedBase(): Promise<string | null>;
  /** Creates a player's link, or gives an existing player a new one (the old link stops working). */
  linkPlayer(playerId: string, name: string | null, now?: number): Promise<{ player: LinkedPlayer & { token: string }; replaced: boolean }>;
  /** The player whose link token this is, matched on its sha256 (`token`: the one given); null for an unknown or malformed token. */
  playerByToken(token: string): Promise<(LinkedPlayer & { token: string }) | null>;
  linkedPlayers(): Promise<LinkedPlayer[]>;
  linkedPlayer(playerId: string): Promise<LinkedPlayer | null>;
  /** An upload came through the player's link: from now on uploads naming them need it (kept if already set). */
  markLinkOnly(playerId: string, now?: number): Promise<void>;
  /** The owner's reset: tokenless uploads for the player are taken again until their next upload through the link. */
  resetLinkOnly(playerId: string): Promise<boolean>;
}

/** Who may read saves through the data API: API tokens (stored as sha256) and players' public switches. */
export interface DataAccess {
  /** A new token under `name` (replacing one of that name), returned this once: only its hash is stored. */
  addApiToken(name: string, players: string[] | null, now?: number): Promise<string>;
  revokeApiToken(name: string): Promise<boolean>;
  listApiTokens(): Promise<ApiToken[]>;
  /** The token's grant, matched on its sha256; null when unknown. */
  apiTokenGrant(token: string): Promise<ApiToken | null>;
  setPlayerPublic(playerId: string, on: boolean, now?: number): Promise<void>;
  isPlayerPublic(playerId: string): Promise<boolean>;
}

/** Consumer webhooks' registrations (the notify stage reads them, and writes their deliveries, through its DeliveryStore). */
export interface DataWebhookRegistry {
  /** `carries`: what each POST carries (empty by default) and the check URL asked first, if any. */
  add(url: string, bearer: string | null, now?: number, carries?: DataWebhookCarries): Promise<number>;
  remove(id: number): Promise<boolean>;
  list(): Promise<DataWebhook[]>;
}

/** The owner's catalogue update (src/catalogue/update.ts) as JSON text; the stamp changes with every write. */
export interface CatalogueRecords {
  stamp(): Promise<number | null>;
  read(): Promise<{ stamp: string; text: string } | null>;
  write(text: string, now?: number): Promise<void>;
}

export interface OwnerStore {
  sessions: SessionRecords;
  loginFailures: LoginFailureRecords;
  links: SetupLinks;
  access: DataAccess;
  webhooks: DataWebhookRegistry;
  catalogue: CatalogueRecords;
}
