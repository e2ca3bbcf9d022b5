/**
 * The encrypted bytes of a save: the database copy, or once the retention rule cleared it, the archive's
 * save.bin (checked against the save's sha256, so a damaged file is never taken for the save).
 */
import { eq } from "drizzle-orm";
import { readArchiveBytes, type ArchiveStore } from "../archive/store.ts";
import type { Db } from "../db/open.ts";
import { sha256Hex } from "../sha256.ts";
import { archives, saves } from "../db/schema.ts";

type SaveRow = typeof saves.$inferSelect;

export async function encryptedBytesOf(db: Db, store: ArchiveStore, save: SaveRow): Promise<{ bytes: Uint8Array } | { missing: string }> {
  if (save.encrypted !== null) return { bytes: save.encrypted };
  const archive = db.select({ relPath: archives.relPath }).from(archives).where(eq(archives.saveId, save.id)).get();
  return archivedSaveBytes(store, archive?.relPath ?? null, save.sha256);
}

/** The archive's save.bin of a save the retention rule cleared (`relPath` null: it has no archive). */
export async function archivedSaveBytes(store: ArchiveStore, relPath: string | null, sha256: string): Promise<{ bytes: Uint8Array } | { missing: string }> {
  if (relPath === null) return { missing: "the encrypted save was cleared by the retention rule and the save has no archive" };
  // Only a missing file is final; any other read error is thrown, so the stage retries.
  const bytes = await readArchiveBytes(store, relPath, "save.bin");
  if (bytes === null) return { missing: `the encrypted save was cleared by the retention rule and ${relPath}/save.bin is missing` };
  if (sha256Hex(bytes) !== sha256) return { missing: `${relPath}/save.bin does not match the save's sha256` };
  return { bytes };
}
