/**
 * Archives on disk: DATA_DIR/archive/by-id/<playerId>/<UTC YYYYmmdd_HHMMSS>[_N]/. A folder is written in full
 * under archive/.tmp, flushed, then renamed into place, so a reader never sees half an archive.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { archiveStamp, checkFileName, checkPlayerId, MARKER, SAFE_PLAYER } from "./layout.ts";
import type { ArchiveFile, PendingArchiveFile } from "./store.ts";

export { archiveStamp } from "./layout.ts";

const TMP_DIR = ".tmp";

/** fsync through a file handle: it runs on libuv's thread pool, never blocking the HTTP thread. */
async function flush(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeFlushed(path: string, pending: Uint8Array | Promise<Uint8Array>): Promise<void> {
  const bytes = await pending;
  const handle = await open(path, "w");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readMarker(dir: string): Promise<string | null> {
  return readFile(join(dir, MARKER), "utf8").catch(() => null);
}

/** The folder names this save may live in, in order: stamp, stamp_2, stamp_3 … */
function candidateName(stamp: string, n: number): string {
  return n === 1 ? stamp : `${stamp}_${n}`;
}

/**
 * Where the archive of `saveId` already is under `playerId` (relative to `root`), or null. Reads markers only
 * (stamp, stamp_2 … until one is missing), never lists the player's folder: usually one failed read.
 */
export async function findArchive(root: string, playerId: string, saveId: number, receivedAt: number): Promise<string | null> {
  if (!SAFE_PLAYER.test(playerId)) return null;
  const stamp = archiveStamp(receivedAt);
  for (let n = 1; ; n++) {
    const marker = await readMarker(join(root, "by-id", playerId, candidateName(stamp, n)));
    if (marker === null) return null;
    if (marker === String(saveId)) return join("by-id", playerId, candidateName(stamp, n));
  }
}

export interface WriteArchiveInput {
  root: string;
  playerId: string;
  saveId: number;
  receivedAt: number;
  files: PendingArchiveFile[];
}

/** Writes (or rewrites) the archive of one save; returns its path relative to `root`. */
export async function writeArchive(input: WriteArchiveInput): Promise<string> {
  checkPlayerId(input.playerId);
  for (const file of input.files) checkFileName(file.name);

  const own = await findArchive(input.root, input.playerId, input.saveId, input.receivedAt);
  if (own !== null) {
    await replaceFiles(input.root, join(input.root, own), input.files);
    return own;
  }

  const playerDir = join(input.root, "by-id", input.playerId);
  await mkdir(playerDir, { recursive: true });
  const stamp = archiveStamp(input.receivedAt);
  const existing = new Set(await readdir(playerDir));

  const tmp = join(input.root, TMP_DIR, `${input.saveId}-${randomBytes(6).toString("hex")}`);
  await mkdir(tmp, { recursive: true });
  // In parallel, each file as soon as its bytes are there (a map while the others still draw): the file system
  // groups the fsyncs (~1 ms each one after another), and most of them are done before the last map is.
  // A map that fails (or a render cut off) takes the temp folder with it: nothing of this attempt stays behind.
  const marker = { name: MARKER, bytes: new TextEncoder().encode(String(input.saveId)) };
  const written = await Promise.allSettled([...input.files, marker].map((file) => writeFlushed(join(tmp, file.name), file.bytes)));
  const failed = written.find((result) => result.status === "rejected");
  if (failed) {
    await rm(tmp, { recursive: true, force: true });
    throw failed.reason;
  }

  for (let n = 1; ; n++) {
    const name = candidateName(stamp, n);
    if (existing.has(name)) continue;
    try {
      await rename(tmp, join(playerDir, name));
      await flush(playerDir);
      return join("by-id", input.playerId, name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      existing.add(name);
    }
  }
}

/**
 * Rewrites the files of an existing archive one by one, each through a temp file and a rename, once every file's
 * bytes are there: a map that fails to draw leaves the committed folder as it was, never half new. The temp files
 * live under archive/.tmp (same file system), where removeStaleTemp finds what a killed writer left.
 */
async function replaceFiles(root: string, dir: string, files: PendingArchiveFile[]): Promise<void> {
  const ready = await Promise.all(files.map(async (file) => ({ name: file.name, bytes: await file.bytes })));
  await mkdir(join(root, TMP_DIR), { recursive: true });
  for (const file of ready) {
    const tmp = join(root, TMP_DIR, `${file.name}.${randomBytes(6).toString("hex")}.tmp`);
    await writeFlushed(tmp, file.bytes);
    await rename(tmp, join(dir, file.name));
  }
  await flush(dir);
}

/** Rewrites one file of a committed archive (the notify stage's summary.json), only in the folder of this save. */
export async function replaceArchiveFile(root: string, relPath: string, saveId: number, file: ArchiveFile): Promise<void> {
  checkFileName(file.name);
  const dir = join(root, relPath);
  if ((await readMarker(dir)) !== String(saveId)) throw new Error(`archive ${relPath} does not hold save ${saveId}`);
  await replaceFiles(root, dir, [file]);
}

/**
 * Removes the folder a save left behind when its archive moved under another player (called once the new
 * archive is committed). Only a folder whose marker names this save is removed; returns whether one was.
 */
export async function removeArchiveFolder(root: string, relPath: string, saveId: number): Promise<boolean> {
  const dir = join(root, relPath);
  if ((await readMarker(dir)) !== String(saveId)) return false;
  await rm(dir, { recursive: true, force: true });
  await flush(dirname(dir));
  return true;
}

/** Removes temp folders left by a process that died mid-write; returns how many. */
export async function removeStaleTemp(root: string, olderThanMs: number, now = Date.now()): Promise<number> {
  const tmpRoot = join(root, TMP_DIR);
  const names = await readdir(tmpRoot).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const path = join(tmpRoot, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > olderThanMs) {
      await rm(path, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
