/**
 * generate: decrypt and draw in a worker; keep the files in SQLite until the archive holds them, and the
 * outputs model and the drops' fingerprint with the save for good (the push is built from the one and decided
 * by the other).
 */
import { eq } from "drizzle-orm";
import { saveOutputs, saves } from "../../db/schema.ts";
import { metrics } from "../../metrics.ts";
import { encryptedBytesOf } from "../encrypted-save.ts";
import type { Stage } from "../stage.ts";

export const generateStage: Stage = async ({ db, config, workers, archiveRoot }, job) => {
  const { keys } = config;
  const save = db.select().from(saves).where(eq(saves.id, job.subject.saveId)).get();
  if (!save) return { kind: "fail", reason: "save row is missing" };
  if (keys.length === 0) return { kind: "wait_for_key" };
  const encrypted = await encryptedBytesOf(db, archiveRoot, save);
  if ("missing" in encrypted) return { kind: "fail", reason: encrypted.missing };

  const renderStarted = performance.now();
  const result = await workers.run("generate", {
    encrypted: encrypted.bytes,
    keys,
    playerId: save.playerId,
    capturedAt: save.receivedAt,
    locale: config.maps.locale,
    showHarvested: config.maps.showHarvested,
    assetsDir: config.maps.assetsDir,
    timeZone: config.maps.timeZone,
  });
  metrics.rendered(performance.now() - renderStarted);
  if (result.kind === "invalid" || result.kind === "too_large") return { kind: "fail", reason: result.reason };

  const { files, outputs, dropsFingerprint } = result;
  return {
    kind: "advance",
    next: "archive",
    note: `${result.kind} key=${result.keyLabel} files=${files.length}`,
    commit: (tx) => {
      tx.update(saves).set({ outputs, dropsFingerprint }).where(eq(saves.id, save.id)).run();
      tx.delete(saveOutputs).where(eq(saveOutputs.saveId, save.id)).run();
      for (const file of files) {
        tx.insert(saveOutputs).values({ saveId: save.id, name: file.name, body: file.bytes }).run();
      }
    },
  };
};
