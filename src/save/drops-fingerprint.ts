/**
 * What identifies a refresh: the drops of every site (site, resource type and id, position, quantity). The
 * harvest status and the order of the drops are left out, so visiting MySekai again after harvesting gives
 * the same fingerprint and only a new refresh changes it.
 */
import { createHash } from "node:crypto";
import type { MySekaiSave } from "./model.ts";

export function dropsFingerprint(save: MySekaiSave): string {
  const rows = save.sites.flatMap((site) =>
    site.drops.map((d) => JSON.stringify([site.siteId, d.resourceType, d.resourceId, d.positionX, d.positionZ, d.quantity])),
  );
  // Sorted by code unit: one order whatever order the game lists sites and drops in.
  rows.sort();
  return createHash("sha256").update(rows.join("\n")).digest("hex");
}
