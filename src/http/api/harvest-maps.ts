/**
 * The save a bot reads after a birthday party refreshed the harvest maps: the full save's JSON with
 * `updatedResources.userMysekaiHarvestMaps` replaced by the delivery's, every other key kept (what the largest
 * hub's birthday-party write does to its stored row). Sliced from both JSONs' bytes, never parsed whole, so 64-bit
 * numbers stay as written.
 */
import { topLevelMembers, type JsonMember } from "./json-parts.ts";

const RESOURCES = "updatedResources";
const MAPS = "userMysekaiHarvestMaps";

const object = (members: Buffer[]) => Buffer.concat([Buffer.from("{"), ...members.flatMap((m, i) => (i === 0 ? [m] : [Buffer.from(","), m])), Buffer.from("}")]);
const member = (key: string, value: Buffer): JsonMember => ({ member: Buffer.concat([Buffer.from(`${JSON.stringify(key)}:`), value]), value });

/** `save` with the harvest maps of `delivery` in place (added when it had none); null when the delivery holds none. */
export function withHarvestMaps(save: Buffer, delivery: Buffer): Buffer | null {
  const resourcesOf = (json: Buffer) => {
    const value = topLevelMembers(json).get(RESOURCES)?.value;
    return value === undefined ? new Map<string, JsonMember>() : topLevelMembers(value);
  };
  const maps = resourcesOf(delivery).get(MAPS);
  if (maps === undefined) return null;
  const top = topLevelMembers(save);
  // A Map keeps a replaced key where it was: the answer's members stay in the save's order.
  const resources = resourcesOf(save).set(MAPS, maps);
  top.set(RESOURCES, member(RESOURCES, object([...resources.values()].map((m) => m.member))));
  return object([...top.values()].map((m) => m.member));
}
