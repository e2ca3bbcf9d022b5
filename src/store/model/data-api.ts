/** What the data API reads of saves: a player's latest archived save, and players' latest upload times. */

export interface LatestSave {
  id: number;
  sha256: string;
  source: "upload" | "report";
  receivedAt: number;
  /**
   * A birthday party's delivery that refreshed the harvest maps after this save: the answer is this save with the
   * delivery's `updatedResources.userMysekaiHarvestMaps` in place (src/http/api/harvest-maps.ts).
   */
  harvestMaps?: LatestSave;
}

export interface PlayerUpload {
  playerId: string;
  receivedAt: number;
}
