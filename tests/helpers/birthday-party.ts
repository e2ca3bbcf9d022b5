/**
 * A birthday party's delivery as the game is inferred to serve it at
 * PUT /api/user/{id}/mysekai/birthday-party/{partyId}/delivery (no real body is public; the shape is what the
 * largest hub reads: a top-level `isRefreshed`, `updatedResources.userMysekaiHarvestMaps`, and its renderer's
 * `updatedResources.userBirthdayParties`). Built from the real save: a refresh carries the four sites' harvest maps
 * with drops the save did not have (the party refreshed them); `partySite` moves them to site 9 instead.
 */
import { harvestMapsOf, REAL_SAVE_PLAYER, realSave } from "./real-save.ts";

export const PARTY_SITE = 9;
export const PARTY_ID = 25;
export const DELIVERY_URL = `https://mkcn-prod-public-60001-2.dailygn.com/api/user/${REAL_SAVE_PLAYER}/mysekai/birthday-party/${PARTY_ID}/delivery`;
/** The materials the delivery says were obtained: Miku 2026's party. */
export const OBTAINED = 30;

type Row = Record<string, unknown>;

export interface DeliveryShape {
  /** The body's `isRefreshed`; undefined leaves the key out. */
  refreshed?: boolean;
  /** Carry harvest maps (default true). */
  maps?: boolean;
  /** Only the first site, moved to site 9 (the party site the earlier guess assumed). */
  partySite?: boolean;
}

export function birthdayDelivery({ refreshed = true, maps = true, partySite = false }: DeliveryShape = {}): Row {
  const sites = harvestMapsOf(realSave());
  for (const site of sites) {
    const drops = site.userMysekaiSiteHarvestResourceDrops as Row[];
    // Birthday celebration flowers are mysekai materials 67–92 in the game's master data: drops the save had not.
    for (const [i, drop] of drops.slice(0, 3).entries()) Object.assign(drop, { resourceType: "mysekai_material", resourceId: 67 + i });
  }
  const harvestMaps = partySite ? [{ ...sites[0], mysekaiSiteId: PARTY_SITE }] : sites;
  const updatedResources: Row = {
    now: 1774265000000,
    userBirthdayParties: [{ birthdayPartyId: PARTY_ID, deliveryTotalPoint: 302300, obtainedMysekaiMaterialCount: OBTAINED, droppedMysekaiMaterialCount: 0 }],
    ...(maps && { userMysekaiHarvestMaps: harvestMaps }),
  };
  return { ...(refreshed !== undefined && { isRefreshed: refreshed }), updatedResources };
}
