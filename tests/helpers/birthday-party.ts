/**
 * A birthday party's delivery as the game serves it at /api/user/{id}/mysekai/birthday-party/{partyId}/delivery:
 * a body carrying only `updatedResources.userMysekaiHarvestMaps`, the party site's (site 9). Built from the real
 * save's first site: its harvest points and drops moved to site 9, the first drops turned into birthday materials.
 */
import { harvestMapsOf, REAL_SAVE_PLAYER, realSave } from "./real-save.ts";

export const PARTY_SITE = 9;
export const DELIVERY_URL = `https://mkcn-prod-public-60001-2.dailygn.com/api/user/${REAL_SAVE_PLAYER}/mysekai/birthday-party/41/delivery`;

export function birthdayDelivery(): Record<string, unknown> {
  const [site] = harvestMapsOf(realSave());
  const drops = site!.userMysekaiSiteHarvestResourceDrops as Record<string, unknown>[];
  // Birthday celebration flowers are mysekai materials 67–92 in the game's master data.
  for (const [i, drop] of drops.slice(0, 3).entries()) Object.assign(drop, { resourceType: "mysekai_material", resourceId: 67 + i });
  return { updatedResources: { now: 1774265000000, userMysekaiHarvestMaps: [{ ...site, mysekaiSiteId: PARTY_SITE }] } };
}
