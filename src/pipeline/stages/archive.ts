/** archive: write save.bin and the generated files to disk, record the archive, drop the copies from SQLite. */
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { removeArchiveFolder, writeArchive } from "../../archive/write.ts";
import { archives, saveOutputs, saves } from "../../db/schema.ts";
import { logInfo, logWarn } from "../../log.ts";
import { encryptedBytesOf } from "../encrypted-save.ts";
import type { Stage } from "../stage.ts";

export const archiveStage: Stage = async ({ db, archiveRoot }, job) => {
  const save = db.select().from(saves).where(eq(saves.id, job.subject.saveId)).get();
  if (!save) return { kind: "fail", reason: "save row is missing" };
  const outputs = db.select().from(saveOutputs).where(eq(saveOutputs.saveId, save.id)).orderBy(asc(saveOutputs.name)).all();
  const existing = db.select().from(archives).where(eq(archives.saveId, save.id)).get();
  if (outputs.length === 0 && existing) return { kind: "advance", next: "notify", note: "already archived" };
  if (outputs.length === 0) return { kind: "fail", reason: "no generated outputs to archive (run reprocess)" };
  const encrypted = await encryptedBytesOf(db, archiveRoot, save);
  if ("missing" in encrypted) return { kind: "fail", reason: encrypted.missing };

  const files = [{ name: "save.bin", bytes: encrypted.bytes }, ...outputs.map((output) => ({ name: output.name, bytes: output.body }))];
  const relPath = await writeArchive({ root: archiveRoot, playerId: save.playerId, saveId: save.id, receivedAt: save.receivedAt, files });
  const names = files.map((file) => file.name);
  // The save took a real player id after it was archived under `unknown`: the old folder goes once the new
  // one is committed (a crash in between leaves it as an orphan, never the only copy).
  const moved = existing && existing.relPath !== relPath ? existing.relPath : null;
  return {
    kind: "advance",
    next: "notify",
    note: moved ? `${relPath} (moved from ${moved})` : relPath,
    commit: (tx) => {
      // The token stays, so /maps/<token>/… URLs already pushed keep working after a move.
      tx.insert(archives)
        .values({ saveId: save.id, playerId: save.playerId, relPath, token: randomBytes(16).toString("hex"), files: names, createdAt: Date.now() })
        .onConflictDoUpdate({ target: archives.saveId, set: { playerId: save.playerId, relPath, files: names } })
        .run();
      tx.delete(saveOutputs).where(eq(saveOutputs.saveId, save.id)).run();
    },
    afterCommit: moved
      ? () =>
          void removeArchiveFolder(archiveRoot, moved, save.id).then(
            (removed) => logInfo("JOB", "archive moved", { save: save.id, player: save.playerId, from: moved, oldFolderRemoved: removed }),
            (error) => logWarn("JOB", "archive moved; old folder left behind", { save: save.id, from: moved, error: String(error).slice(0, 200) }),
          )
      : undefined,
  };
};
