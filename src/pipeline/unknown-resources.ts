/**
 * Resources the catalogue does not know, logged once per `type:id` per process (the first save that shows one
 * names it; the owner's page and the players' capture health keep counting them). Bounded: past MAX_REMEMBERED ids
 * a new one is still logged, and the oldest is forgotten.
 */
import { logWarn } from "../log.ts";
import { unknownKeys } from "../maps/refresh-digest.ts";
import type { SaveOutputs } from "../maps/save-outputs.ts";

const MAX_REMEMBERED = 10_000;
const logged = new Set<string>();

export function logUnknownResources(outputs: SaveOutputs, saveId: number): void {
  for (const key of unknownKeys(outputs)) {
    if (logged.has(key)) continue;
    if (logged.size >= MAX_REMEMBERED) logged.delete(logged.values().next().value!);
    logged.add(key);
    const [type, id] = key.split(":");
    logWarn("JOB", "resource the catalogue does not know (update the catalogue)", { type, id, save: saveId, player: outputs.playerId });
  }
}
