/**
 * The folder a save's archive takes in a store with no atomic create (a bucket): claimed in the database before
 * any object is written, so two saves of one player drawn in the same second, by two processes or two workers,
 * never share a folder. Its stamp's folder if the save holds (or wins) that claim, else the one named by its id.
 */
import { stampFolders } from "../archive/layout.ts";
import type { ArchiveStore } from "../archive/store.ts";
import type { StageStore, StageSave } from "../store/ports/stage-writes.ts";

/** undefined where the store picks its own folder (disk: a rename settles it). */
export async function claimArchiveFolder(stageStore: Pick<StageStore, "claimArchiveFolder">, archive: ArchiveStore, save: Pick<StageSave, "id" | "playerId" | "receivedAt">): Promise<string | undefined> {
  if (!archive.claimsFolders) return undefined;
  const { stamp, own } = stampFolders({ playerId: save.playerId, saveId: save.id, receivedAt: save.receivedAt });
  return stamp !== null && (await stageStore.claimArchiveFolder(save.id, stamp)) ? stamp : own;
}
