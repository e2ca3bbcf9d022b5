/**
 * Archives in an S3-compatible bucket (ARCHIVE_URL=s3://bucket/prefix): keys <prefix>/archive/<relPath>/<file>,
 * the same layout as on disk. There is no rename nor atomic create: the folder is claimed for the save in the
 * database before put (its stamp's, or if another save holds that stamp, one named by its id too), so a stage run
 * twice overwrites its own objects, and the archives row committed afterwards is what makes them an archive.
 */
import { checkFileName, checkPlayerId, MARKER, SAFE_PLAYER, stampFolders } from "./layout.ts";
import { heardFiles, type ArchivedSave, type ArchiveStore } from "./store.ts";
import { briefly, StoreUnavailableError, unavailableStore } from "../store-unavailable.ts";

export interface S3Location {
  bucket: string;
  /** Key prefix without slashes at either end; "" for the bucket's root. */
  prefix: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** A folder holds a save.bin, a summary, a few maps and the marker: one listing page is plenty. */
const MAX_FOLDER_KEYS = 1000;

/**
 * An object write is tried again after these pauses (a bucket restarting, a connection reset), each try given
 * PUT_TRY_MS (an answer that never comes); past them the write fails as "bucket unavailable" and the stage waits.
 */
const PUT_RETRY_MS = [500, 2000];
export const PUT_TRY_MS = 30_000;

async function writeWithRetries(write: () => Promise<unknown>): Promise<void> {
  for (let tries = 0; ; tries++) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StoreUnavailableError("bucket", `no answer within ${PUT_TRY_MS} ms`)), PUT_TRY_MS)));
      await Promise.race([write(), late]);
      return;
    } catch (error) {
      const pause = PUT_RETRY_MS[tries];
      // A refusal (a wrong secret) is no outage: the stage fails and is retried as any other failure.
      if (pause === undefined || unavailableStore(error) === null) throw error instanceof StoreUnavailableError || unavailableStore(error) === null ? error : new StoreUnavailableError("bucket", briefly(error as Error), { cause: error });
      await new Promise((resolve) => setTimeout(resolve, pause));
    } finally {
      clearTimeout(timer);
    }
  }
}

export function s3ArchiveStore(location: S3Location): ArchiveStore {
  const { prefix, ...options } = location;
  const client = new Bun.S3Client(options);
  const key = (relPath: string, name: string) => `${prefix === "" ? "" : `${prefix}/`}archive/${relPath}/${name}`;

  /** One GET, no HEAD before it: a missing marker is an answer (no save's folder), not an error. */
  const readMarker = (relPath: string): Promise<string | null> =>
    client
      .file(key(relPath, MARKER))
      .text()
      .catch((error: { code?: string }) => {
        if (error.code === "NoSuchKey") return null;
        throw error;
      });
  const holds = async (relPath: string, saveId: number) => (await readMarker(relPath)) === String(saveId);

  /** Where a rerun of a save may have written: the stamp's folder if it held the claim, else its own. */
  const candidates = (save: ArchivedSave): string[] => {
    const { stamp, own } = stampFolders(save);
    return stamp === null ? [own] : [stamp, own];
  };

  const find = async (save: ArchivedSave): Promise<string | null> => {
    if (!SAFE_PLAYER.test(save.playerId)) return null;
    for (const relPath of candidates(save)) if (await holds(relPath, save.saveId)) return relPath;
    return null;
  };

  return {
    location: { kind: "s3", ...location },
    claimsFolders: true,
    find,
    put: async (save, pending) => {
      const files = heardFiles(pending);
      checkPlayerId(save.playerId);
      for (const file of files) checkFileName(file.name);
      const claimed = save.folder;
      if (claimed === undefined || !candidates(save).includes(claimed)) throw new Error(`save ${save.saveId} has no claimed archive folder`);
      // A stamp folder that another save's marker holds (written before the claims existed, or by a run of that
      // save that died before its commit) is not taken over: this save takes its own folder.
      const { own } = stampFolders(save);
      const holder = claimed === own ? null : await readMarker(claimed);
      const relPath = holder === null || holder === String(save.saveId) ? claimed : own;
      // The marker first, while the maps still draw (its round trip off the save's path): a folder with files
      // always says whose they are, and one with the marker alone is this save's claimed folder, found by its next run.
      const marked = writeWithRetries(() => client.write(key(relPath, MARKER), String(save.saveId)));
      // Every map drawn before the first file's PUT: a bucket has no rename, so a map that fails to draw must not
      // leave a folder (or a rewritten one) holding part of this attempt's files.
      const [ready] = await Promise.all([Promise.all(files.map(async (file) => ({ name: file.name, bytes: await file.bytes }))), marked]);
      await Promise.all(ready.map((file) => writeWithRetries(() => client.write(key(relPath, file.name), file.bytes))));
      return relPath;
    },
    read: async (relPath, name) => {
      const file = client.file(key(relPath, name));
      return (await file.exists()) ? file : null;
    },
    readSmall: (relPath, name) =>
      client
        .file(key(relPath, name))
        .bytes()
        .catch(() => null),
    discard: async (relPath, name) => {
      checkFileName(name);
      await client.delete(key(relPath, name));
    },
    replace: async (relPath, saveId, file) => {
      checkFileName(file.name);
      if (!(await holds(relPath, saveId))) throw new Error(`archive ${relPath} does not hold save ${saveId}`);
      await client.write(key(relPath, file.name), file.bytes);
    },
    remove: async (relPath, saveId) => {
      if (!(await holds(relPath, saveId))) return false;
      const folder = key(relPath, "");
      const listed = await client.list({ prefix: folder, maxKeys: MAX_FOLDER_KEYS });
      const keys = (listed.contents ?? []).map((object) => object.key).filter((name) => name !== folder + MARKER);
      await Promise.all(keys.map((name) => client.delete(name)));
      // The marker last: a removal cut short leaves a folder that still says whose it is (an orphan, as on disk).
      await client.delete(folder + MARKER);
      return true;
    },
    sweep: async () => 0,
  };
}
