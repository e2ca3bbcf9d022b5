/**
 * The CPU-heavy work of the pipeline as plain data in, plain data out. Runs inside a worker, off the HTTP thread:
 * generate also writes the drawn files to the archive there, so ~1 MB of maps a save never crosses to the HTTP
 * thread (its heap, its event loop), which only commits what was written.
 */
import { packSaveJson, SAVE_JSON_FILE } from "../archive/save-json-file.ts";
import { openArchiveStore, type ArchiveLocation, type ArchiveStore, type PendingArchiveFile } from "../archive/store.ts";
import type { DataType } from "../capture/data-types.ts";
import type { MapLocale } from "../config/index.ts";
import { useStoredCatalogue, type StoredCatalogue } from "../catalogue/loaded.ts";
import { describeSave, isHarvestState, startOutputs, summaryFile, type SaveOutputs } from "../maps/index.ts";
import { dropsFingerprint, INVALID_REASONS, isUnopened, openSave, type KeyPair } from "../save/index.ts";

export interface GenerateRequest {
  encrypted: Uint8Array;
  keys: KeyPair[];
  playerId: string;
  /** The owner's name for the player (`players add --name`), or null. */
  ownerName: string | null;
  capturedAt: number;
  locale: MapLocale;
  showHarvested: boolean;
  commonLabels: "none" | "all";
  assetsDir: string | null;
  timeZone: string;
  maxWidthPx: number;
  /**
   * Where archives go and the save's id (the folder's marker); the folder is named by playerId and capturedAt, or
   * is the one claimed for the save in the database where the store needs that (src/pipeline/archive-folder.ts).
   */
  archive: { location: ArchiveLocation; saveId: number; folder: string | undefined };
  /** Whether to store the save's JSON for the data API (not once the retention rule dropped the save's copies). */
  storeJson: boolean;
  /** The save, or a birthday party's delivery (its title says so). */
  dataType: DataType;
  /** The owner's catalogue update the HTTP thread uses (null: the built-in alone): the maps are drawn with the same. */
  catalogue: StoredCatalogue | null;
}

/** A folder written in full (not yet recorded in the database): its path under the archive root and its files. */
export interface WrittenFolder {
  relPath: string;
  files: string[];
}

export type GenerateResult =
  | { kind: "generated" | "partial"; keyLabel: string; archived: WrittenFolder; outputs: SaveOutputs; dropsFingerprint: string }
  /** Not a save, or a save past the caps: either way it never will be, so the job fails at once. */
  | { kind: "invalid"; reason: string }
  | { kind: "too_large"; reason: string }
  /** Harvest records that cannot be read: failed with the reason, never drawn as "nothing rare". */
  | { kind: "unreadable"; reason: string };

export interface EvaluateRequest {
  bodies: Uint8Array[];
  keys: KeyPair[];
}

export interface EvaluateResult {
  /** Index of the first body that is a full save (else the first over the save caps or unreadable: still stored, then failed with its reason), or null. */
  save: number | null;
  /** Index of the first partial refresh (a save without harvest maps), or null. */
  partial: number | null;
  /** Whether any body decoded under a configured key (if none did, the keys may be wrong). */
  decryptedAny: boolean;
}

/** `onRendered`: the maps are drawn (the archive's writes began with them; the render's timeout ends here, worker-pool.ts). */
export async function runGenerate(request: GenerateRequest, onRendered: () => void = () => {}): Promise<GenerateResult> {
  useStoredCatalogue(request.catalogue);
  const opened = openSave(request.encrypted, request.keys, { json: request.storeJson, delivery: request.dataType === "mysekai_birthday_party" });
  if (isUnopened(opened)) return opened;
  // A partial refresh, or a party delivery that refreshed nothing (kept as a record): its summary alone.
  const drawn = isHarvestState(opened.save, request.dataType);
  const ctx = {
    playerId: request.playerId,
    ownerName: request.ownerName,
    capturedAt: new Date(request.capturedAt),
    locale: request.locale,
    showHarvested: request.showHarvested,
    commonLabels: request.commonLabels,
    assetsDir: request.assetsDir,
    timeZone: request.timeZone,
    dataType: request.dataType,
    maxWidthPx: request.maxWidthPx,
  };
  // The maps start drawing here; the archive's writes start with them, each map's as soon as it is encoded, so
  // the fsyncs overlap the renders still running rather than follow the last one.
  const { files, outputs } = drawn ? await startOutputs(opened.save, ctx) : partialOutputs(describeSave(opened.save, ctx));
  const jsonFile = opened.json === undefined ? [] : [{ name: SAVE_JSON_FILE, bytes: packSaveJson(opened.json) }];
  const maps = files.map((file) => file.bytes);
  let archived: WrittenFolder;
  try {
    [archived] = await Promise.all([archiveFiles(request, [{ name: "save.bin", bytes: request.encrypted }, ...jsonFile, ...files]), Promise.all(maps).then(onRendered)]);
  } catch (error) {
    // A store that failed while maps still drew: they finish first, so the next task never renders beside them.
    await Promise.allSettled(maps);
    throw error;
  }
  return { kind: drawn ? "generated" : "partial", keyLabel: opened.keyLabel, archived, outputs, dropsFingerprint: dropsFingerprint(opened.save) };
}

/** No new harvest state: nothing to draw, only its summary. */
function partialOutputs(outputs: SaveOutputs): { files: PendingArchiveFile[]; outputs: SaveOutputs } {
  return { files: [summaryFile(outputs)], outputs };
}

/** One store per location in this worker (an S3 client keeps its connections). */
const stores = new Map<string, ArchiveStore>();

async function archiveFiles(request: GenerateRequest, files: PendingArchiveFile[]): Promise<WrittenFolder> {
  const { location, saveId, folder } = request.archive;
  const id = JSON.stringify(location);
  const store = stores.get(id) ?? stores.set(id, openArchiveStore(location)).get(id)!;
  const relPath = await store.put({ playerId: request.playerId, saveId, receivedAt: request.capturedAt, folder }, files);
  return { relPath, files: files.map((file) => file.name) };
}

export function runEvaluate(request: EvaluateRequest): EvaluateResult {
  let partial: number | null = null;
  let tooLarge: number | null = null;
  let decryptedAny = false;
  for (const [index, body] of request.bodies.entries()) {
    const opened = openSave(body, request.keys);
    if (opened.kind === "save") return { save: index, partial, decryptedAny: true };
    if (opened.kind === "partial") partial ??= index;
    if (opened.kind === "too_large" || opened.kind === "unreadable") tooLarge ??= index;
    // Only a body that decoded to MessagePack proves a key is right: a wrong key passes the padding check 1 time in 256.
    if (opened.kind !== "invalid" || opened.reason === INVALID_REASONS.notSave) decryptedAny = true;
  }
  return { save: tooLarge, partial, decryptedAny };
}

export interface Tasks {
  generate: [GenerateRequest, GenerateResult];
  evaluate: [EvaluateRequest, EvaluateResult];
}
export type TaskName = keyof Tasks;
