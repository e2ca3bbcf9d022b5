/**
 * The ArchiveStore contract, the same tests on both stores: a temp folder, and a bucket on a real Swift (s3api).
 * `folders` looks past the interface (a directory listing, a bucket listing) to show no second folder is made.
 */
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { s3ArchiveStore } from "../../src/archive/s3-store.ts";
import { readArchiveBytes, type ArchiveStore } from "../../src/archive/store.ts";
import type { HttpDeps } from "../../src/http/deps.ts";
import { mapRoutes } from "../../src/http/maps.ts";
import { recordArchiveRow } from "../../src/db/stage-writes/sqlite.ts";
import { claimArchiveFolder } from "../../src/pipeline/archive-folder.ts";
import { recordSaveArchive } from "../../src/pipeline/archive-save.ts";
import { insertSave, openHarness, type Harness } from "../helpers/pipeline-harness.ts";
import { eventually } from "../helpers/server.ts";
import { dbReads } from "../helpers/store-reads.ts";
import { swiftBucket, swiftSkipReason } from "../helpers/swift.ts";
import { sqlitePageReads } from "../../src/db/read-models/sqlite.ts";

/** /maps answers its refusals in the reader's language: the routes read the page settings (none fixed here). */
const PAGE_CONFIG = { pages: { locale: null } } as unknown as HttpDeps["config"];

/**
 * The store as the generate stage uses it: put into the folder claimed for the save (a bucket's; disk picks its
 * own). The claims are a Map here; the database's, atomic on both stores, pass tests/contract/stage-store.contract.test.ts.
 */
function withFolderClaims(store: ArchiveStore): ArchiveStore {
  const holders = new Map<string, number>();
  const claims = { claimArchiveFolder: async (saveId: number, relPath: string) => (holders.get(relPath) ?? holders.set(relPath, saveId).get(relPath)) === saveId };
  return {
    ...store,
    put: async (save, files) => store.put({ ...save, folder: await claimArchiveFolder(claims, store, { id: save.saveId, playerId: save.playerId, receivedAt: save.receivedAt }) }, files),
  };
}

interface StoreFixture {
  store: ArchiveStore;
  /** The stamp folders under a player, as the backing storage lists them. */
  folders: (playerId: string) => Promise<string[]>;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function diskFixture(): Promise<StoreFixture> {
  const root = mkdtempSync(join(tmpdir(), "mysekai-archive-store-"));
  dirs.push(root);
  const dir = (playerId: string) => join(root, "by-id", playerId);
  return { store: withFolderClaims(diskArchiveStore(root)), folders: async (playerId) => (existsSync(dir(playerId)) ? readdirSync(dir(playerId)).sort() : []) };
}

let bucket: ReturnType<typeof swiftBucket> | null = null;
let prefixes = 0;

/** One bucket for the file, a prefix per test. */
async function s3Fixture(): Promise<StoreFixture> {
  const { endpoint, bucket: name, accessKeyId, secretAccessKey, region } = await (bucket ??= swiftBucket());
  const prefix = `hub/test${++prefixes}`;
  const client = new Bun.S3Client({ endpoint, bucket: name, accessKeyId, secretAccessKey, region });
  const folders = async (playerId: string) => {
    const under = `${prefix}/archive/by-id/${playerId}/`;
    const listed = await client.list({ prefix: under });
    return [...new Set((listed.contents ?? []).map((object) => object.key.slice(under.length).split("/")[0]!))].sort();
  };
  return { store: withFolderClaims(s3ArchiveStore({ bucket: name, prefix, endpoint, accessKeyId, secretAccessKey, region })), folders };
}

if (swiftSkipReason !== null) console.warn(swiftSkipReason);

const PLAYER = "7488393821744390161";
const AT = Date.UTC(2026, 10, 23, 6, 15, 42, 500);
const NO_FINDS = { partial: false, rare: [], newSongs: [], more: 0, sites: [] };
const bytes = (text: string) => new TextEncoder().encode(text);
const text = async (store: ArchiveStore, relPath: string, name: string) => {
  const read = await readArchiveBytes(store, relPath, name);
  return read === null ? null : new TextDecoder().decode(read);
};

for (const [name, open] of [
  ["disk", diskFixture],
  ["S3 (Swift)", s3Fixture],
] as const) {
  describe.skipIf(name !== "disk" && swiftSkipReason !== null)(`ArchiveStore on ${name}`, () => {
    let f: StoreFixture;
    let h: Harness;
    let saveId = 100;
    // Long: the first call starts Swift (~30 s on a busy 2-core machine, up to minutes on a loaded one).
    beforeEach(async () => {
      f = await open();
      h = openHarness();
    }, 180_000);
    afterEach(() => h.close());
    const save = (playerId = PLAYER, receivedAt = AT) => ({ playerId, saveId: ++saveId, receivedAt });

    test("put then read: the files under by-id/<player>/<UTC stamp>", async () => {
      const s = save();
      const relPath = await f.store.put(s, [
        { name: "save.bin", bytes: bytes("encrypted") },
        { name: "overview.png", bytes: bytes("png") },
      ]);
      expect(relPath).toBe(`by-id/${PLAYER}/20261123_061542`);
      expect(await text(f.store, relPath, "save.bin")).toBe("encrypted");
      expect(await text(f.store, relPath, "overview.png")).toBe("png");
      expect(await f.store.find(s)).toBe(relPath);
    });

    test("a second run for the same save overwrites its files in the same folder, never a second one", async () => {
      const s = save();
      const first = await f.store.put(s, [{ name: "summary.json", bytes: bytes("{}") }]);
      const again = await f.store.put(s, [{ name: "summary.json", bytes: bytes('{"again":true}') }]);
      expect(again).toBe(first);
      expect(await text(f.store, again, "summary.json")).toBe('{"again":true}');
      expect(await f.folders(PLAYER)).toEqual(["20261123_061542"]);
    });

    test("a rerun whose map fails to draw leaves the folder as the last run wrote it, no file half new", async () => {
      const s = save();
      const relPath = await f.store.put(s, [{ name: "save.bin", bytes: bytes("first") }, { name: "site_5.png", bytes: bytes("first map") }]);
      // It fails before put has found its folder (a disk or a bucket round trip): put's failure, not one nobody heard.
      const failed = new Promise<Uint8Array>((_, reject) => setTimeout(() => reject(new Error("render failed")), 0));
      await expect(f.store.put(s, [{ name: "save.bin", bytes: bytes("second") }, { name: "site_5.png", bytes: failed }])).rejects.toThrow(/render failed/);
      expect(await text(f.store, relPath, "save.bin")).toBe("first");
      expect(await text(f.store, relPath, "site_5.png")).toBe("first map");
    });

    test("another save of the player in the same second gets a folder of its own, and each rerun finds its own", async () => {
      const one = save();
      const two = save();
      const first = await f.store.put(one, [{ name: "save.bin", bytes: bytes("one") }]);
      const second = await f.store.put(two, [{ name: "save.bin", bytes: bytes("two") }]);
      expect(second).not.toBe(first);
      expect(await f.store.put(two, [{ name: "save.bin", bytes: bytes("two again") }])).toBe(second);
      expect(await f.store.put(one, [{ name: "save.bin", bytes: bytes("one again") }])).toBe(first);
      expect([await text(f.store, first, "save.bin"), await text(f.store, second, "save.bin")]).toEqual(["one again", "two again"]);
      expect(await f.folders(PLAYER)).toHaveLength(2);
    });

    test("saves with no player id yet, archived at once in the same second, each keep their own folder and files", async () => {
      const saves = Array.from({ length: 4 }, () => save("unknown"));
      const paths = await Promise.all(saves.map((s) => f.store.put(s, [{ name: "save.bin", bytes: bytes(`save ${s.saveId}`) }])));
      expect(new Set(paths).size).toBe(4);
      for (const [i, s] of saves.entries()) {
        expect(await text(f.store, paths[i]!, "save.bin")).toBe(`save ${s.saveId}`);
        expect(await f.store.find(s)).toBe(paths[i]!);
      }
    });

    test("replace rewrites one file only in the folder of its save", async () => {
      const s = save();
      const relPath = await f.store.put(s, [{ name: "summary.json", bytes: bytes("old") }, { name: "save.bin", bytes: bytes("keep") }]);
      await f.store.replace(relPath, s.saveId, { name: "summary.json", bytes: bytes("new") });
      expect(await text(f.store, relPath, "summary.json")).toBe("new");
      expect(await text(f.store, relPath, "save.bin")).toBe("keep");
      await expect(f.store.replace(relPath, s.saveId + 1000, { name: "summary.json", bytes: bytes("x") })).rejects.toThrow(/does not hold save/);
      expect(await text(f.store, relPath, "summary.json")).toBe("new");
    });

    test("remove deletes the folder of its save only; then every file is not found", async () => {
      const s = save();
      const relPath = await f.store.put(s, [{ name: "save.bin", bytes: bytes("x") }, { name: "site_5.png", bytes: bytes("y") }]);
      expect(await f.store.remove(relPath, s.saveId + 1000)).toBe(false);
      expect(await text(f.store, relPath, "save.bin")).toBe("x");
      expect(await f.store.remove(relPath, s.saveId)).toBe(true);
      expect(await f.store.read(relPath, "save.bin")).toBeNull();
      expect(await f.store.read(relPath, "site_5.png")).toBeNull();
      expect(await f.store.find(s)).toBeNull();
      expect(await f.folders(PLAYER)).toEqual([]);
    });

    test("a file that is not there reads as null, not an error", async () => {
      const relPath = await f.store.put(save(), [{ name: "save.bin", bytes: bytes("x") }]);
      expect(await f.store.read(relPath, "site_404.png")).toBeNull();
      expect(await f.store.read(`by-id/${PLAYER}/19990101_000000`, "overview.png")).toBeNull();
    });

    test("readSmall gives a file's bytes (null when absent); discard deletes one file, and one already gone is no error", async () => {
      const relPath = await f.store.put(save(), [{ name: "save.json.gz", bytes: bytes("json") }, { name: "save.bin", bytes: bytes("bin") }]);
      expect(new TextDecoder().decode((await f.store.readSmall(relPath, "save.json.gz"))!)).toBe("json");
      await f.store.discard(relPath, "save.json.gz");
      await f.store.discard(relPath, "save.json.gz");
      expect(await f.store.readSmall(relPath, "save.json.gz")).toBeNull();
      expect(await text(f.store, relPath, "save.bin")).toBe("bin");
    });

    test("unsafe player ids and file names are refused", async () => {
      await expect(f.store.put(save("../etc"), [])).rejects.toThrow(/player id/);
      await expect(f.store.put(save(), [{ name: "../x", bytes: bytes("") }])).rejects.toThrow(/bad archive file name/);
      await expect(f.store.put(save(), [{ name: ".save-id", bytes: bytes("1") }])).rejects.toThrow(/bad archive file name/);
    });

    test("/maps/<token>/<file> serves a file of the store; one the row lists but the store lacks is 404", async () => {
      const id = insertSave(h.db, AT, PLAYER);
      const files = [{ name: "overview.png", bytes: bytes("png bytes") }];
      const relPath = await f.store.put({ playerId: PLAYER, saveId: id, receivedAt: AT }, files);
      const archive = await recordSaveArchive(f.store, { id, playerId: PLAYER, receivedAt: AT }, null, { relPath, files: ["overview.png", "site_1.png"] }, NO_FINDS);
      h.db.transaction((tx) => recordArchiveRow(tx, id, archive.row, Date.now()));
      const { token } = (await dbReads(h.db).archive(id))!;
      const maps = mapRoutes({ pages: sqlitePageReads(h.db), archive: f.store, config: PAGE_CONFIG } as HttpDeps);
      const found = await maps.request(`/maps/${token}/overview.png`);
      expect([found.status, found.headers.get("content-type"), await found.text()]).toEqual([200, "image/png", "png bytes"]);
      const missing = await maps.request(`/maps/${token}/site_1.png`);
      expect([missing.status, await missing.text()]).toEqual([404, "not found"]);
    });

    test("adoption: drawn under unknown and committed, then under the player id: new keys committed, then the old ones removed", async () => {
      const id = insertSave(h.db, AT, "unknown");
      const draw = async (playerId: string) => {
        const files = [{ name: "save.bin", bytes: bytes(playerId) }, { name: "overview.png", bytes: bytes("png") }];
        const row = { id, playerId, receivedAt: AT };
        const relPath = await f.store.put({ playerId, saveId: id, receivedAt: AT }, files);
        const recorded = (await h.deps.stageStore.saveToDraw(id))?.archivePath ?? null;
        const archive = await recordSaveArchive(f.store, row, recorded, { relPath, files: files.map((file) => file.name) }, NO_FINDS);
        h.db.transaction((tx) => recordArchiveRow(tx, id, archive.row, Date.now()));
        archive.afterCommit?.();
        return archive;
      };
      const first = await draw("unknown");
      expect(first.movedFrom).toBeNull();
      const moved = await draw(PLAYER);
      expect(moved.movedFrom).toBe(first.relPath);
      expect((await dbReads(h.db).archive(id))?.rel_path).toBe(moved.relPath);
      await eventually(async () => (await f.folders("unknown")).length === 0, 10_000, "the unknown folder removed");
      expect(await text(f.store, moved.relPath, "save.bin")).toBe(PLAYER);
      expect(await f.store.read(first.relPath, "save.bin")).toBeNull();
    });
  });
}

test("/maps answers 503 when the store cannot be read (an outage is no missing file)", async () => {
  const h = openHarness();
  try {
    const failing: ArchiveStore = { ...diskArchiveStore(h.archiveRoot), read: () => Promise.reject(new Error("connection refused")) };
    const id = insertSave(h.db, AT, PLAYER);
    const row = { playerId: PLAYER, relPath: "by-id/1/x", files: ["a.png"], digest: NO_FINDS, token: "0".repeat(32) };
    h.db.transaction((tx) => recordArchiveRow(tx, id, row, 0));
    const response = await mapRoutes({ pages: sqlitePageReads(h.db), archive: failing, config: PAGE_CONFIG } as HttpDeps).request(`/maps/${"0".repeat(32)}/a.png`);
    expect(response.status).toBe(503);
  } finally {
    h.close();
  }
});
