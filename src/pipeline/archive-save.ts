/**
 * A save's archive once its folder is written (by the generate task, src/pipeline/tasks.ts): the archives row
 * that points at it, recorded with the stage (src/store/ports/stage-writes.ts), and the folder it replaces, if any.
 */
import { randomBytes } from "node:crypto";
import type { ArchiveStore } from "../archive/store.ts";
import type { RefreshDigest } from "../maps/refresh-digest.ts";
import type { SaveRow as StoredSaveRow } from "../store/model/saves.ts";
import { logInfo, logWarn } from "../log.ts";
import { UNKNOWN_PLAYER } from "../save/player-id.ts";
import type { ArchiveRow } from "../store/ports/stage-writes.ts";
import type { WrittenFolder } from "./tasks.ts";

type SaveRow = Pick<StoredSaveRow, "id" | "playerId" | "receivedAt">;

export interface WrittenArchive {
  relPath: string;
  /** The folder it replaced (the save took a real player id after it was archived under `unknown`), or null. */
  movedFrom: string | null;
  /** The archives row to record (or re-point). */
  row: ArchiveRow;
  /** Removes the replaced folder once the new one is committed (a crash in between leaves an orphan, never the only copy). */
  afterCommit: (() => void) | undefined;
}

/**
 * The folder the save's archive replaces: `recorded` (its archives row's), or for a save with none yet a folder
 * under `unknown`, left by a process that died after drawing there and before its commit (the save may have taken
 * its player id since). A read of the store: the generate stage starts it before the drawing, off the save's path.
 */
export async function priorFolder(store: ArchiveStore, save: SaveRow, recorded: string | null): Promise<string | null> {
  return recorded ?? (save.playerId === UNKNOWN_PLAYER ? null : await store.find({ playerId: UNKNOWN_PLAYER, saveId: save.id, receivedAt: save.receivedAt }));
}

/** `recorded`: the folder the save's archives row points at, or null when it has none yet; `prior`: priorFolder's answer. */
export async function recordSaveArchive(
  store: ArchiveStore,
  save: SaveRow,
  recorded: string | null,
  written: WrittenFolder,
  digest: RefreshDigest,
  prior: Promise<string | null> = priorFolder(store, save, recorded),
): Promise<WrittenArchive> {
  const { relPath, files: names } = written;
  const previous = await prior;
  const movedFrom = previous && previous !== relPath ? previous : null;
  return {
    relPath,
    movedFrom,
    row: { playerId: save.playerId, relPath, files: names, digest, token: randomBytes(16).toString("hex") },
    afterCommit: movedFrom
      ? () =>
          void store.remove(movedFrom, save.id).then(
            (removed) => logInfo("JOB", "archive moved", { save: save.id, player: save.playerId, from: movedFrom, oldFolderRemoved: removed }),
            (error) => logWarn("JOB", "archive moved; old folder left behind", { save: save.id, from: movedFrom, error: String(error).slice(0, 200) }),
          )
      : undefined,
  };
}
