/** The typed view of a decrypted MySekai save: only what the maps, summary and notifications need. */

/** A resource is identified by (type, id); never by id alone. `mysekai_material:12`. */
export type ResourceKey = `${string}:${number}`;

export function resourceKey(resourceType: string, resourceId: number): ResourceKey {
  return `${resourceType}:${resourceId}`;
}

export interface HarvestFixture {
  /** mysekaiSiteHarvestFixtureId: which kind of harvest point (tree, rock, plant ...), see the catalogue. */
  fixtureId: number;
  positionX: number;
  positionZ: number;
  hp: number;
  /** true when the point was already harvested today. */
  harvested: boolean;
  /** mysekaiSiteHarvestSpawnLimitedRelationGroupId: set on a party-limited harvest point, else null. */
  spawnGroup: number | null;
}

export interface ResourceDrop {
  resourceType: string;
  resourceId: number;
  positionX: number;
  positionZ: number;
  quantity: number;
  seq: number;
  /** The game's raw drop status, e.g. `before_drop`. */
  status: string;
  /** true when the drop was already picked up. */
  harvested: boolean;
  /** mysekaiSiteHarvestSpawnLimitedRelationGroupId: set on a party-limited drop, else null. */
  spawnGroup: number | null;
}

export interface SiteHarvest {
  siteId: number;
  fixtures: HarvestFixture[];
  drops: ResourceDrop[];
}

export interface WeatherSchedule {
  phenomenaId: number;
  startAt: number;
  endAt: number;
}

export interface MySekaiSave {
  /** Server time of the response (ms since epoch), when the save carries it. */
  now: number | null;
  /** One entry per harvest map in the save, in save order. Empty for a partial refresh. */
  sites: SiteHarvest[];
  /** false when `updatedResources.userMysekaiHarvestMaps` was an empty array (partial refresh). */
  hasHarvestMaps: boolean;
  ownedMusicRecordIds: number[];
  /** The in-game name (`userGamedata.name`) when the save carries one; the MySekai response usually does not. */
  playerName?: string | null;
  weather: WeatherSchedule[];
  /** A birthday party delivery's top-level `isRefreshed` (the party refreshed the harvest maps); null when absent. */
  isRefreshed: boolean | null;
  /** `userBirthdayParties`: each running party's progress, as the body carries it (deliveries and saves alike). */
  birthdayParties: BirthdayPartyProgress[];
}

/** One row of `userBirthdayParties` (field names as the largest hub's renderer reads them). */
export interface BirthdayPartyProgress {
  partyId: number;
  /** `obtainedMysekaiMaterialCount`: the party's materials obtained so far (its level). */
  obtained: number;
  /** `deliveryTotalPoint`, when given. */
  points: number | null;
}
