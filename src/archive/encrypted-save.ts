/**
 * The encrypted bytes of a save: the database copy, or once the retention rule cleared it, the archive's
 * save.bin (checked against the save's sha256, so a damaged file is never taken for the save).
 */
import { readArchiveBytes, type ArchiveStore } from "./store.ts";
import { sha256Hex } from "../sha256.ts";
import type { SaveRow as StoredSaveRow } from "../store/model/saves.ts";

type SaveRow = Pick<StoredSaveRow, "encrypted" | "sha256">;

/** `archivePath`: the save's archive folder, or null when it has none. */
export async function encryptedBytesOf(store: ArchiveStore, save: SaveRow, archivePath: string | null): Promise<{ bytes: Uint8Array } | { missing: string }> {
  if (save.encrypted !== null) return { bytes: save.encrypted };
  return archivedSaveBytes(store, archivePath, save.sha256);
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
