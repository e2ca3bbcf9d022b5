/** Archives under DATA_DIR/archive (the default): folders written under .tmp, flushed, renamed (write.ts). */
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { heardFiles, type ArchiveStore } from "./store.ts";
import { findArchive, removeArchiveFolder, removeStaleTemp, replaceArchiveFile, writeArchive } from "./write.ts";

export function diskArchiveStore(root: string): ArchiveStore {
  return {
    location: { kind: "disk", root },
    claimsFolders: false,
    put: (save, files) => writeArchive({ root, ...save, files: heardFiles(files) }),
    find: (save) => findArchive(root, save.playerId, save.saveId, save.receivedAt),
    read: async (relPath, name) => {
      const file = Bun.file(join(root, relPath, name));
      return (await file.exists()) ? file : null;
    },
    readSmall: async (relPath, name) => {
      try {
        return readFileSync(join(root, relPath, name));
      } catch {
        return null;
      }
    },
    discard: (relPath, name) => rm(join(root, relPath, name), { force: true }),
    replace: (relPath, saveId, file) => replaceArchiveFile(root, relPath, saveId, file),
    remove: (relPath, saveId) => removeArchiveFolder(root, relPath, saveId),
    sweep: (olderThanMs, now) => removeStaleTemp(root, olderThanMs, now),
  };
}
