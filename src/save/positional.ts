/**
 * The harvest records' positional form (CN client 6.4.0 on): a record sent as an array by position instead of
 * an object of named fields. Restored here, in place, into the object form the rest of the service reads and the
 * data API serves (bots read named fields), with the layout of Team-Haruki/Haruki-Toolbox-Backend
 * `docs/mysekai-restore.zh-CN.md` (from the client's own schema):
 * - map     [mysekaiSiteId, userMysekaiSiteHarvestFixtures, userMysekaiSiteHarvestResourceDrops]
 * - fixture [mysekaiSiteHarvestFixtureId, positionX, positionZ, hp, userMysekaiSiteHarvestFixtureStatus, groupId?]
 * - drop    [resourceType, resourceId, positionX, positionZ, hp, seq, mysekaiSiteHarvestResourceDropStatus,
 *            quantity, groupId?]
 * Each record is told apart by its own shape (an array is positional, an object is named), so mixed lists and
 * named maps holding positional fixtures read too. The trailing group id is nullable: an explicit null is kept,
 * a missing one is not added. Positions past the layout are kept, unnamed, in `_msgpackExtra` (Haruki's name).
 * A missing required position or a wrong type is a HarvestRecordError naming the record: the save is unreadable,
 * never drawn as empty.
 */

export const EXTRA_POSITIONS = "_msgpackExtra";

export class HarvestRecordError extends Error {
  override readonly name = "HarvestRecordError";
  constructor(detail: string) {
    super(`harvest records cannot be read: ${detail}`);
  }
}

type Kind = "int" | "number" | "string" | "list" | "nullableInt";
type Field = readonly [name: string, kind: Kind];

const FIXTURE: readonly Field[] = [
  ["mysekaiSiteHarvestFixtureId", "int"],
  ["positionX", "number"],
  ["positionZ", "number"],
  ["hp", "int"],
  ["userMysekaiSiteHarvestFixtureStatus", "string"],
  ["mysekaiSiteHarvestSpawnLimitedRelationGroupId", "nullableInt"],
];

const DROP: readonly Field[] = [
  ["resourceType", "string"],
  ["resourceId", "int"],
  ["positionX", "number"],
  ["positionZ", "number"],
  ["hp", "int"],
  ["seq", "int"],
  ["mysekaiSiteHarvestResourceDropStatus", "string"],
  ["quantity", "int"],
  ["mysekaiSiteHarvestSpawnLimitedRelationGroupId", "nullableInt"],
];

const FIXTURES = "userMysekaiSiteHarvestFixtures";
const DROPS = "userMysekaiSiteHarvestResourceDrops";
const MAP: readonly Field[] = [
  ["mysekaiSiteId", "int"],
  [FIXTURES, "list"],
  [DROPS, "list"],
];
const CHILDREN: Record<string, readonly Field[]> = { [FIXTURES]: FIXTURE, [DROPS]: DROP };

function isInt(value: unknown): boolean {
  return typeof value === "bigint" || (typeof value === "number" && Number.isSafeInteger(value));
}

function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "int":
      return isInt(value);
    case "nullableInt":
      return value === null || isInt(value);
    case "number":
      return typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value));
    case "string":
      return typeof value === "string";
    case "list":
      return value === null || Array.isArray(value);
  }
}

const EXPECTED: Record<Kind, string> = { int: "an integer", nullableInt: "an integer or null", number: "a number", string: "a string", list: "a list" };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array);

/** One positional record as an object of named fields; its lists restored too. */
function named(row: unknown[], layout: readonly Field[], where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [index, [name, kind]] of layout.entries()) {
    if (index >= row.length) {
      if (kind === "nullableInt") continue;
      throw new HarvestRecordError(`${where}: position ${index} (${name}) is missing`);
    }
    const value = row[index];
    if (!fits(value, kind)) throw new HarvestRecordError(`${where}: position ${index} (${name}) is not ${EXPECTED[kind]}`);
    out[name] = value;
  }
  if (row.length > layout.length) out[EXTRA_POSITIONS] = row.slice(layout.length);
  return out;
}

const ROW_NAMES: Record<string, string> = { [FIXTURES]: "harvest point", [DROPS]: "drop" };

/** A harvest map's rows restored in place; `where` names the map by its site id when it has one. */
function restoreMap(value: unknown, index: number): unknown {
  const record = Array.isArray(value) ? named(value, MAP, `harvest map ${index}`) : value;
  if (!isObject(record)) return value;
  const site = isInt(record.mysekaiSiteId) ? `site ${String(record.mysekaiSiteId)}` : `harvest map ${index}`;
  for (const list of [FIXTURES, DROPS]) {
    const rows = record[list];
    if (!Array.isArray(rows)) continue;
    for (let i = 0; i < rows.length; i++) {
      if (Array.isArray(rows[i])) rows[i] = named(rows[i] as unknown[], CHILDREN[list]!, `${site} ${ROW_NAMES[list]} ${i}`);
    }
  }
  return record;
}

/**
 * Restores `updatedResources.userMysekaiHarvestMaps` of a freshly decoded tree in place (the tree is the caller's
 * own); a tree without them is left alone. Throws HarvestRecordError.
 */
export function restoreHarvestMaps(tree: unknown): void {
  const updated = isObject(tree) ? tree.updatedResources : undefined;
  const maps = isObject(updated) ? updated.userMysekaiHarvestMaps : undefined;
  if (!Array.isArray(maps)) return;
  for (let i = 0; i < maps.length; i++) maps[i] = restoreMap(maps[i], i);
}
