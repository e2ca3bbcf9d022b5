/**
 * Where archives live, as the pipeline, /maps and retention use them: a folder per save (by-id/<player>/<stamp>),
 * named by a relPath that the archives row records. The row is the commit point: a folder no row names is an
 * orphan of a run that died, found again by its marker when the same save runs again.
 */
import { diskArchiveStore } from "./disk-store.ts";
import { s3ArchiveStore, type S3Location } from "./s3-store.ts";

export interface ArchiveFile {
  name: string;
  bytes: Uint8Array;
}

/** A file to archive whose bytes may still be drawing (the maps): its write begins once they are there. */
export interface PendingArchiveFile {
  name: string;
  bytes: Uint8Array | Promise<Uint8Array>;
}

/**
 * A map that fails to draw while put is still finding or claiming its folder is put's failure, thrown where put awaits
 * it, never a rejection nobody heard yet (which ends a Bun process). Every put takes its files through this first.
 */
export function heardFiles(files: PendingArchiveFile[]): PendingArchiveFile[] {
  for (const file of files) if (file.bytes instanceof Promise) file.bytes.catch(() => undefined);
  return files;
}

export interface ArchivedSave {
  playerId: string;
  saveId: number;
  receivedAt: number;
  /** The folder claimed for this save in the database, for a store that needs one (`claimsFolders`); others pick their own. */
  folder?: string;
}

/** Plain data, so a worker thread or a task process opens the same store (src/pipeline/tasks.ts). */
export type ArchiveLocation = { kind: "disk"; root: string } | ({ kind: "s3" } & S3Location);

export interface ArchiveStore {
  readonly location: ArchiveLocation;
  /**
   * Whether put writes into the folder claimed for the save in the database (src/pipeline/archive-folder.ts): a
   * bucket has no atomic create to settle two saves of one stamp. Disk settles it itself with a rename.
   */
  readonly claimsFolders: boolean;
  /**
   * Writes (or rewrites) the files of one save; a second run for the same save writes into the same folder. Returns
   * its relPath once every file is written, and fails if any file's bytes fail. Files already there are written
   * while the others are still drawing.
   */
  put(save: ArchivedSave, files: PendingArchiveFile[]): Promise<string>;
  /** The folder already holding this save under `save.playerId` (written by a run that died before its commit), or null. */
  find(save: ArchivedSave): Promise<string | null>;
  /** One file of a folder, or null when it is not there. Any other failure throws (a caller retries). */
  read(relPath: string, name: string): Promise<Blob | null>;
  /**
   * A small file's bytes where a request waits for them (the data API's save.json.gz), or null when it is not
   * there or cannot be read. Disk reads it on the calling thread: for ~25 KB a thread-pool round trip costs more.
   */
  readSmall(relPath: string, name: string): Promise<Uint8Array | null>;
  /** Rewrites one file of the committed folder of `saveId` (the notify stage's summary.json). */
  replace(relPath: string, saveId: number, file: ArchiveFile): Promise<void>;
  /** Deletes one file of a folder (retention drops save.json.gz); a file already gone is no error. */
  discard(relPath: string, name: string): Promise<void>;
  /** Removes the folder of `saveId` at relPath (its archive moved to another player); false if it holds another save or none. */
  remove(relPath: string, saveId: number): Promise<boolean>;
  /** Housekeeping: what killed writers left (disk temp folders); returns how many went. */
  sweep(olderThanMs: number, now?: number): Promise<number>;
}

export function openArchiveStore(location: ArchiveLocation): ArchiveStore {
  return location.kind === "disk" ? diskArchiveStore(location.root) : s3ArchiveStore(location);
}

/** The bytes of one file, or null when it is not there. */
export async function readArchiveBytes(store: ArchiveStore, relPath: string, name: string): Promise<Uint8Array | null> {
  const blob = await store.read(relPath, name);
  return blob === null ? null : new Uint8Array(await blob.arrayBuffer());
}
