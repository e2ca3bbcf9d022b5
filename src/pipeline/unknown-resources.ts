/**
 * Resources the catalogue does not know, logged once per `type:id` by a running service (the first save that shows
 * one names it; the owner's page and the players' capture health keep counting them). Bounded: past MAX_REMEMBERED
 * ids a new one is still logged, and the oldest is forgotten.
 */
import { logWarn } from "../log.ts";
import { unknownKeys } from "../maps/refresh-digest.ts";
import type { SaveOutputs } from "../maps/save-outputs.ts";

const MAX_REMEMBERED = 10_000;

/** Logs the unknown resources of a save's outputs that this log has not named yet. */
export type UnknownResourceLog = (outputs: SaveOutputs, saveId: number) => void;

/** One a service: what it logged is its own, not the process's. */
export function unknownResourceLog(): UnknownResourceLog {
  const logged = new Set<string>();
  return (outputs, saveId) => {
    for (const key of unknownKeys(outputs)) {
      if (logged.has(key)) continue;
      if (logged.size >= MAX_REMEMBERED) logged.delete(logged.values().next().value!);
      logged.add(key);
      const [type, id] = key.split(":");
      logWarn("JOB", "resource the catalogue does not know (update the catalogue)", { type, id, save: saveId, player: outputs.playerId });
    }
  };
}
