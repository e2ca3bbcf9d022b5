/**
 * generate: decrypt, draw and write the archive (save.bin, the data API's save.json.gz and the drawn files) in
 * a worker, then commit the folder with the outputs model and the drops' fingerprint (the push is built from the
 * one and decided by the other). The files go straight to the archive, never through SQLite or the HTTP thread:
 * a crash before the commit draws them again into the same folder (disk finds it by the save's marker; a bucket's
 * is the one claimed for the save, src/pipeline/archive-folder.ts).
 */
import { storedCatalogue } from "../../catalogue/loaded.ts";
import { metrics } from "../../metrics.ts";
import { claimArchiveFolder } from "../archive-folder.ts";
import { priorFolder, recordSaveArchive } from "../archive-save.ts";
import { mapLocaleFor, timeZoneFor } from "../../config/maps.ts";
import { refreshDigest } from "../../maps/refresh-digest.ts";
import { implausibleReason } from "../../save/plausible.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { encryptedBytesOf } from "../../archive/encrypted-save.ts";
import type { Stage } from "../stage.ts";

export const generateStage: Stage = async ({ stageStore, config, workers, archive: store, logUnknownResources, links }, job) => {
  const { keys } = config;
  const found = await stageStore.saveToDraw(job.subject.saveId);
  if (!found) return { kind: "fail", reason: "save row is missing" };
  const { save, archivePath } = found;
  if (keys.length === 0) return { kind: "wait_for_key" };
  const encrypted = await encryptedBytesOf(store, save, archivePath);
  if ("missing" in encrypted) return { kind: "fail", reason: encrypted.missing };
  // Junk fails here in microseconds, without a worker task.
  const implausible = implausibleReason(encrypted.bytes, keys);
  if (implausible !== null) return { kind: "fail", reason: implausible };

  // The owner's name for the player, read beside the folder's claim: the maps carry it.
  const owner = save.playerId === UNKNOWN_PLAYER ? Promise.resolve(null) : links.linkedPlayer(save.playerId);
  owner.catch(() => {});
  const folder = await claimArchiveFolder(stageStore, store, save);
  // Read while the maps draw (a bucket's round trip): awaited only once they are archived; a failure then fails the stage.
  const prior = priorFolder(store, save, archivePath);
  prior.catch(() => {});
  const renderStarted = performance.now();
  const result = await workers.run("generate", {
    encrypted: encrypted.bytes,
    keys,
    playerId: save.playerId,
    ownerName: (await owner)?.name ?? null,
    capturedAt: save.receivedAt,
    locale: mapLocaleFor(config.maps, save.region),
    showHarvested: config.maps.showHarvested,
    commonLabels: config.maps.commonLabels,
    assetsDir: config.maps.assetsDir,
    timeZone: timeZoneFor(config.maps, save.region),
    maxWidthPx: config.maps.maxWidthPx,
    archive: { location: store.location, saveId: save.id, folder },
    // The retention rule drops the stored JSON with the database copy: a save past it is not given one again.
    storeJson: save.encrypted !== null,
    dataType: save.dataType,
    catalogue: storedCatalogue(),
  });
  metrics.rendered(performance.now() - renderStarted);
  if (result.kind === "invalid" || result.kind === "too_large" || result.kind === "unreadable") return { kind: "fail", reason: result.reason };

  const { archived, outputs, dropsFingerprint } = result;
  logUnknownResources(outputs, save.id);
  const archive = await recordSaveArchive(store, save, archivePath, archived, refreshDigest(outputs), prior);
  const where = archive.movedFrom ? `${archive.relPath} (moved from ${archive.movedFrom})` : archive.relPath;
  return {
    kind: "advance",
    next: "notify",
    note: `${result.kind} key=${result.keyLabel} files=${archived.files.length} ${where}`,
    writes: { kind: "drawn", saveId: save.id, outputs, dropsFingerprint, archive: archive.row },
    afterCommit: archive.afterCommit,
    durable: archive.movedFrom !== null,
  };
};
