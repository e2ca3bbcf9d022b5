/** What the data API reads of saves: a player's latest archived save, and players' latest upload times. */

export interface LatestSave {
  id: number;
  sha256: string;
  source: "upload" | "report";
  receivedAt: number;
}

export interface PlayerUpload {
  playerId: string;
  receivedAt: number;
}
