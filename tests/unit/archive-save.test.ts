/** generate's archive: a written folder recorded with the stage's commit, and an older folder of the save removed after it. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeArchive } from "../../src/archive/write.ts";
import { recordArchiveRow } from "../../src/db/stage-writes/sqlite.ts";
import { recordSaveArchive } from "../../src/pipeline/archive-save.ts";
import { eventually } from "../helpers/server.ts";
import { insertSave, openHarness, type Harness } from "../helpers/pipeline-harness.ts";
import { dbReads } from "../helpers/store-reads.ts";

const PLAYER = "7488393821744390161";
const NO_FINDS = { partial: false, rare: [], newSongs: [], more: 0, sites: [] };
const drawn = [{ name: "overview.png", bytes: new Uint8Array([0x89, 0x50]) }];
let h: Harness;
beforeEach(() => {
  h = openHarness();
});
afterEach(() => h.close());

const saveRow = (id: number, playerId: string, receivedAt: number) => ({ id, playerId, receivedAt });
/** What the generate task does in the worker: the folder written in full, then handed over by path and names. */
async function written(save: ReturnType<typeof saveRow>, encrypted: Uint8Array) {
  const files = [{ name: "save.bin", bytes: encrypted }, ...drawn];
  const relPath = await writeArchive({ root: h.archiveRoot, playerId: save.playerId, saveId: save.id, receivedAt: save.receivedAt, files });
  return recordSaveArchive(h.deps.archive, save, (await recordedPath(save.id)) ?? null, { relPath, files: files.map((file) => file.name) }, NO_FINDS);
}
const recordedPath = async (saveId: number) => (await dbReads(h.db).archive(saveId))?.rel_path;

describe("recordSaveArchive", () => {
  test("a first archive: recorded, nothing moved", async () => {
    const at = Date.UTC(2026, 10, 23, 6, 0, 0);
    const id = insertSave(h.db, at, PLAYER);
    const archive = await written(saveRow(id, PLAYER, at), new Uint8Array([1, 2, 3]));
    expect(archive).toMatchObject({ relPath: `by-id/${PLAYER}/20261123_060000`, movedFrom: null, afterCommit: undefined });
    h.db.transaction((tx) => recordArchiveRow(tx, id, archive.row, Date.now()));
    expect(await recordedPath(id)).toBe(archive.relPath);
    expect((await dbReads(h.db).archive(id))?.files).toEqual(["save.bin", "overview.png"]);
    expect([...readFileSync(join(h.archiveRoot, archive.relPath, "save.bin"))]).toEqual([1, 2, 3]);
  });

  test("a folder left under unknown by a process that died before its commit is removed once the new one is committed", async () => {
    const at = Date.UTC(2026, 10, 23, 7, 0, 0);
    const id = insertSave(h.db, at, PLAYER);
    // Drawn under `unknown`, then the process died: a folder, no archives row; the save took its player id since.
    const left = await writeArchive({ root: h.archiveRoot, playerId: "unknown", saveId: id, receivedAt: at, files: drawn });
    const archive = await written(saveRow(id, PLAYER, at), new Uint8Array([4]));
    expect(archive.movedFrom).toBe(left);
    expect(existsSync(join(h.archiveRoot, left))).toBe(true);
    h.db.transaction((tx) => recordArchiveRow(tx, id, archive.row, Date.now()));
    archive.afterCommit?.();
    await eventually(() => !existsSync(join(h.archiveRoot, left)), 5_000, "the unknown folder removed");
    expect(existsSync(join(h.archiveRoot, archive.relPath, "save.bin"))).toBe(true);
    expect(await recordedPath(id)).toBe(archive.relPath);
  });

  test("another save's folder under unknown is left alone", async () => {
    const at = Date.UTC(2026, 10, 23, 8, 0, 0);
    const id = insertSave(h.db, at, PLAYER);
    const other = await writeArchive({ root: h.archiveRoot, playerId: "unknown", saveId: id + 100, receivedAt: at, files: drawn });
    const archive = await written(saveRow(id, PLAYER, at), new Uint8Array([5]));
    expect(archive.movedFrom).toBeNull();
    expect(existsSync(join(h.archiveRoot, other))).toBe(true);
  });
});
