/**
 * A running process follows the owner's catalogue update: at start before any save is drawn, then every
 * CATALOGUE_CHECK_SECONDS (30 s by default, at most 60) it reads the stored update's stamp, and the update
 * itself only when the stamp moved. A malformed update is logged once and never used: the catalogue in use stays.
 * The store away: the check is tried again next time.
 */
import { logInfo, logWarn } from "../log.ts";
import type { CatalogueRecords } from "../store/ports/owner.ts";
import { ownerCatalogue, useStoredCatalogue } from "./loaded.ts";

export async function followCatalogue(records: CatalogueRecords, checkMs: number): Promise<() => void> {
  let seen: number | null | undefined;
  const check = async () => {
    try {
      const stamp = await records.stamp();
      if (stamp === seen) return;
      const stored = stamp === null ? null : await records.read();
      seen = stamp;
      if (!useStoredCatalogue(stored)) return;
      const owner = ownerCatalogue();
      const regions = owner?.catalog.masterData.map((m) => `${m.region} ${m.dataVersion}`).join(", ") ?? "none";
      logInfo("CATALOGUE", owner ? "using the owner's catalogue update" : "using the built-in catalogue", { updated: regions, resources: owner?.catalog.resources.length ?? 0 });
    } catch (error) {
      logWarn("CATALOGUE", "the owner's catalogue update is not used; the catalogue in use stays", { error: String(error).slice(0, 200) });
    }
  };
  await check();
  const timer = setInterval(() => void check(), checkMs);
  return () => clearInterval(timer);
}
