/**
 * What the data API reads (and the one thing it writes: lunabot's subscription lists): async, so that a hub's
 * PostgreSQL can stand behind it. Written once for both stores in src/db/read-models/data-api.ts.
 */
import type { DataType } from "../../capture/data-types.ts";
import type { LatestSave, PlayerUpload } from "../model/data-api.ts";
import type { ApiToken, MsrSubscription, SubscriptionList } from "../model/owner.ts";

/** What a save's JSON is made from. */
export interface SaveJsonReads {
  /** The save's save.json.gz, or null when its archive lists none. */
  storedJson(saveId: number): Promise<Uint8Array | null>;
  /** The save's encrypted bytes (database copy, or the archive's save.bin once retention cleared it). */
  encrypted(saveId: number): Promise<Uint8Array | null>;
}

export interface DataReads extends SaveJsonReads {
  /**
   * The player's latest archived full save in `region` (saves without a game host count for the default region),
   * with the maps of a party refresh received after it; or their latest party refresh, for `mysekai_birthday_party`.
   */
  latest(region: string, playerId: string, dataType?: DataType): Promise<LatestSave | null>;
  /** Players with an archived save in `region` and their latest upload time, the newest first, at most `limit`. */
  recentUploads(region: string, limit: number): Promise<PlayerUpload[]>;
  /** The latest upload time of each of these players that has an archived save in `region` (others left out), in one read. */
  uploadTimes(region: string, playerIds: string[]): Promise<PlayerUpload[]>;
  grant(token: string): Promise<ApiToken | null>;
  isPublic(playerId: string): Promise<boolean>;
  /** The token's last `/msr` list for `region` (PUT update_msr_sub), in the store: any process answers the GET. */
  subscription(tokenName: string, region: string): Promise<MsrSubscription | null>;
  subscribe(tokenName: string, region: string, list: SubscriptionList, now: number): Promise<void>;
}
