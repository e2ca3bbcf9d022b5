/**
 * From a decoded MessagePack tree to the typed MySekaiSave.
 *
 * "Is a save" = a map whose `updatedResources.userMysekaiHarvestMaps` is an array. An empty array is a
 * partial refresh: still parsed, with hasHarvestMaps=false.
 *
 * Positional records (arrays by position, CN client 6.4.0 on) are restored to named ones first (positional.ts):
 * there a missing position or a wrong type throws HarvestRecordError. Named records that cannot be read (wrong
 * types, non-finite numbers, missing required fields) are skipped (number rules in coerce.ts), but harvest maps
 * of which none can be read, or a site whose drops none can be read, throw HarvestRecordError: such a save is
 * failed with the reason, never drawn as "nothing rare". Required and optional fields:
 * - harvest map: mysekaiSiteId; missing fixture/drop arrays count as empty.
 * - fixture: mysekaiSiteHarvestFixtureId, positionX, positionZ, userMysekaiSiteHarvestFixtureStatus;
 *   hp optional (0). harvested = status is anything but "spawned".
 * - drop: resourceType, resourceId, positionX, positionZ, mysekaiSiteHarvestResourceDropStatus;
 *   quantity optional (1, must be >= 1 when given), seq optional (0).
 * - fixture and drop: mysekaiSiteHarvestSpawnLimitedRelationGroupId optional (a party-limited spawn; null when
 *   absent, null or unreadable: never a reason to skip the record).
 *   harvested = status is anything but "before_drop".
 * - music record: mysekaiMusicRecordId; duplicates dropped, save order kept.
 * - a site id seen twice: the later harvest map is skipped (one map per site).
 * `now` is `updatedResources.now`, else the top-level `now`, else null.
 * A birthday party's delivery (`{ delivery: true }`) is read even without harvest maps (a map holding
 * `updatedResources` or a boolean `isRefreshed`): kept as a record, never drawn. Its top-level `isRefreshed` and
 * any body's `userBirthdayParties` (in `updatedResources`, else top level) are read for what they are.
 * Lists and strings past SAVE_LIMITS throw SaveLimitError: such a save is refused whole, never cut.
 * The tree's harvest maps are restored in place: the caller's tree is then in the object form.
 */
import type { BirthdayPartyProgress, HarvestFixture, MySekaiSave, ResourceDrop, SiteHarvest } from "./model.ts";
import {
  asRecord,
  readCoordinate,
  readInteger,
  readOptionalInteger,
  readString,
  type RecordValue,
} from "./coerce.ts";
import { cappedRows, SAVE_LIMITS, SaveLimitError } from "./limits.ts";
import { HarvestRecordError, restoreHarvestMaps } from "./positional.ts";
import { readWeather } from "./weather.ts";

export const FIXTURE_PRESENT_STATUS = "spawned";
export const DROP_PRESENT_STATUS = "before_drop";

function readFixture(value: unknown): HarvestFixture | null {
  const row = asRecord(value);
  if (row === null) return null;
  const fixtureId = readInteger(row.mysekaiSiteHarvestFixtureId);
  const positionX = readCoordinate(row.positionX);
  const positionZ = readCoordinate(row.positionZ);
  const status = readCappedString(row.userMysekaiSiteHarvestFixtureStatus, "a harvest point's status");
  const hp = readOptionalInteger(row.hp, 0);
  if (fixtureId === null || positionX === null || positionZ === null || status === null || hp === null) return null;
  return { fixtureId, positionX, positionZ, hp, harvested: status !== FIXTURE_PRESENT_STATUS, spawnGroup: readSpawnGroup(row) };
}

function readDrop(value: unknown): ResourceDrop | null {
  const row = asRecord(value);
  if (row === null) return null;
  const resourceType = readCappedString(row.resourceType, "a drop's resourceType");
  const resourceId = readInteger(row.resourceId);
  const positionX = readCoordinate(row.positionX);
  const positionZ = readCoordinate(row.positionZ);
  const status = readCappedString(row.mysekaiSiteHarvestResourceDropStatus, "a drop's status");
  const quantity = readOptionalInteger(row.quantity, 1);
  const seq = readOptionalInteger(row.seq, 0);
  if (resourceType === null || resourceId === null || status === null) return null;
  if (positionX === null || positionZ === null || seq === null || quantity === null || quantity < 1) return null;
  return {
    resourceType,
    resourceId,
    positionX,
    positionZ,
    quantity,
    seq,
    status,
    harvested: status !== DROP_PRESENT_STATUS,
    spawnGroup: readSpawnGroup(row),
  };
}

/** The party spawn group both forms carry (the positional form's last element, restored by name): null when absent or unreadable. */
function readSpawnGroup(row: RecordValue): number | null {
  return readInteger(row.mysekaiSiteHarvestSpawnLimitedRelationGroupId);
}

function readCappedString(value: unknown, what: string): string | null {
  const text = readString(value);
  if (text !== null && text.length > SAVE_LIMITS.stringChars) {
    throw new SaveLimitError(`${what} is ${text.length} characters (limit ${SAVE_LIMITS.stringChars})`);
  }
  return text;
}

function readList<T>(rows: unknown[], readOne: (item: unknown) => T | null): T[] {
  const out: T[] = [];
  for (const item of rows) {
    const parsed = readOne(item);
    if (parsed !== null) out.push(parsed);
  }
  return out;
}

function readSite(value: unknown): SiteHarvest | null {
  const row = asRecord(value);
  if (row === null) return null;
  const siteId = readInteger(row.mysekaiSiteId);
  if (siteId === null) return null;
  const fixtures = cappedRows(row.userMysekaiSiteHarvestFixtures, SAVE_LIMITS.fixturesPerSite, `harvest points on site ${siteId}`);
  const drops = cappedRows(row.userMysekaiSiteHarvestResourceDrops, SAVE_LIMITS.dropsPerSite, `drops on site ${siteId}`);
  const read = readList(drops, readDrop);
  if (drops.length > 0 && read.length === 0) throw new HarvestRecordError(`none of the ${drops.length} drops of site ${siteId} could be read`);
  return { siteId, fixtures: readList(fixtures, readFixture), drops: read };
}

function readSites(rows: unknown[]): SiteHarvest[] {
  const seen = new Set<number>();
  const sites = readList(rows, readSite).filter((site) => !seen.has(site.siteId) && seen.add(site.siteId));
  if (rows.length > 0 && sites.length === 0) throw new HarvestRecordError(`none of the ${rows.length} harvest maps could be read`);
  return sites;
}

function readMusicRecordIds(value: unknown): number[] {
  const ids = new Set<number>();
  for (const item of cappedRows(value, SAVE_LIMITS.musicRecords, "owned music records")) {
    const id = readInteger(asRecord(item)?.mysekaiMusicRecordId);
    if (id !== null) ids.add(id);
  }
  return [...ids];
}

/** A name is shown on maps and in pushes: at most this many characters of it. */
const PLAYER_NAME_CHARS = 32;

function readPlayerName(top: RecordValue, updated: RecordValue): string | null {
  const name = readString(asRecord(updated.userGamedata ?? top.userGamedata)?.name)?.trim();
  return name ? [...name].slice(0, PLAYER_NAME_CHARS).join("") : null;
}

function readNow(top: RecordValue, updated: RecordValue): number | null {
  return readInteger(updated.now) ?? readInteger(top.now);
}

function readBirthdayParties(value: unknown): BirthdayPartyProgress[] {
  return readList(cappedRows(value, SAVE_LIMITS.birthdayParties, "birthday parties"), (item) => {
    const row = asRecord(item);
    const partyId = readInteger(row?.birthdayPartyId);
    const obtained = readOptionalInteger(row?.obtainedMysekaiMaterialCount, 0);
    const points = readInteger(row?.deliveryTotalPoint);
    return partyId === null || obtained === null ? null : { partyId, obtained, points };
  });
}

/** The typed save, or null when `decoded` is not a MySekai save (nor, asked for, a delivery). Throws SaveLimitError and HarvestRecordError. */
export function toMySekaiSave(decoded: unknown, { delivery = false }: { delivery?: boolean } = {}): MySekaiSave | null {
  restoreHarvestMaps(decoded);
  const top = asRecord(decoded);
  if (top === null) return null;
  const isRefreshed = typeof top.isRefreshed === "boolean" ? top.isRefreshed : null;
  const updated = asRecord(top.updatedResources) ?? (delivery && isRefreshed !== null ? {} : null);
  if (updated === null) return null;
  if (!Array.isArray(updated.userMysekaiHarvestMaps) && !delivery) return null;
  const harvestMaps = cappedRows(updated.userMysekaiHarvestMaps, SAVE_LIMITS.sites, "harvest maps (sites)");
  return {
    isRefreshed,
    birthdayParties: readBirthdayParties(updated.userBirthdayParties ?? top.userBirthdayParties),
    now: readNow(top, updated),
    sites: readSites(harvestMaps),
    hasHarvestMaps: harvestMaps.length > 0,
    ownedMusicRecordIds: readMusicRecordIds(updated.userMysekaiMusicRecords ?? top.userMysekaiMusicRecords),
    weather: readWeather(top.mysekaiPhenomenaSchedules ?? updated.mysekaiPhenomenaSchedules),
    playerName: readPlayerName(top, updated),
  };
}
