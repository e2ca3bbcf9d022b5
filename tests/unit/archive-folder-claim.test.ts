/**
 * Two saves of one player drawn in the same second, at once, into one bucket (a real Swift): the folder is claimed
 * in the database before any object is written (src/pipeline/archive-folder.ts), so they never share a folder, on
 * SQLite's stage store and on a hub's PostgreSQL (claims on separate connections: a race in the database itself).
 */
import { beforeEach, expect, test } from "bun:test";
import { s3ArchiveStore } from "../../src/archive/s3-store.ts";
import { readArchiveBytes, type ArchiveStore } from "../../src/archive/store.ts";
import { claimArchiveFolder } from "../../src/pipeline/archive-folder.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { swiftBucket, swiftSkipReason } from "../helpers/swift.ts";

const PLAYER = "7488393821744390161";
const AT = Date.UTC(2026, 10, 23, 6, 15, 42, 500);
const STAMP = `by-id/${PLAYER}/20261123_061542`;
const bytes = (text: string) => new TextEncoder().encode(text);

if (swiftSkipReason !== null) console.warn(swiftSkipReason);

let prefixes = 0;
async function bucketStore(): Promise<{ store: ArchiveStore; folders: () => Promise<string[]> }> {
  const { endpoint, bucket, accessKeyId, secretAccessKey, region } = await swiftBucket();
  const prefix = `claims/test${++prefixes}`;
  const client = new Bun.S3Client({ endpoint, bucket, accessKeyId, secretAccessKey, region });
  const under = `${prefix}/archive/by-id/${PLAYER}/`;
  const folders = async () => [...new Set(((await client.list({ prefix: under })).contents ?? []).map((object) => object.key.slice(under.length).split("/")[0]!))].sort();
  return { store: s3ArchiveStore({ bucket, prefix, endpoint, accessKeyId, secretAccessKey, region }), folders };
}

describeEachStore("bucket folders claimed", (s) => {
  let bucket: Awaited<ReturnType<typeof bucketStore>>;
  // Long: the first bucket starts Swift (~30 s on a busy 2-core machine, up to minutes on a loaded one).
  beforeEach(async () => void (bucket = await bucketStore()), 180_000);
  const addSave = (bytes: Uint8Array, playerId: string, at: number) => s.rows.save({ bytes, playerId, at });

  /** What generate does with a save's files: claim its folder, then write it. */
  const draw = async (saveId: number, content: string) => {
    const folder = await claimArchiveFolder(s.stores.stageStore, bucket.store, { id: saveId, playerId: PLAYER, receivedAt: AT });
    return bucket.store.put({ playerId: PLAYER, saveId, receivedAt: AT, folder }, [
      { name: "save.bin", bytes: bytes(content) },
      { name: "overview.png", bytes: bytes(`png of ${content}`) },
    ]);
  };
  const text = async (relPath: string, name: string) => new TextDecoder().decode((await readArchiveBytes(bucket.store, relPath, name)) ?? new Uint8Array());

  test("two saves of a player drawn at once in one second: two folders, each with its own save's marker and files; reruns write back into their own", async () => {
    const ids = await Promise.all([1, 2].map((n) => addSave(new Uint8Array([n]), PLAYER, AT)));
    const paths = await Promise.all(ids.map((id) => draw(id, `save ${id}`)));
    const holder = ids[paths.indexOf(STAMP)];
    expect(holder).toBeDefined();
    const other = ids.find((id) => id !== holder)!;
    expect(paths[ids.indexOf(other)]).toBe(`${STAMP}_${other}`);
    for (const [i, id] of ids.entries()) {
      expect(await bucket.store.find({ playerId: PLAYER, saveId: id, receivedAt: AT })).toBe(paths[i]!);
      expect([await text(paths[i]!, "save.bin"), await text(paths[i]!, "overview.png")]).toEqual([`save ${id}`, `png of save ${id}`]);
    }

    const again = await Promise.all([...ids].reverse().map((id) => draw(id, `save ${id} again`)));
    expect(again.reverse()).toEqual(paths);
    for (const [i, id] of ids.entries()) expect(await text(paths[i]!, "save.bin")).toBe(`save ${id} again`);
    expect(await bucket.folders()).toEqual([STAMP, `${STAMP}_${other}`].map((path) => path.split("/").at(-1)!).sort());
  });

  test("a stamp folder another save's marker holds with no claim (a version before the claims, or its crashed run) is not taken over", async () => {
    const [earlier, id] = [await addSave(bytes("a"), PLAYER, AT), await addSave(bytes("b"), PLAYER, AT)];
    // What a process of the version before the claims left: its marker and a file, no archive_folders row.
    await bucket.store.put({ playerId: PLAYER, saveId: earlier, receivedAt: AT, folder: STAMP }, [{ name: "save.bin", bytes: bytes("earlier") }]);
    expect(await draw(id, "this one")).toBe(`${STAMP}_${id}`);
    expect([await text(STAMP, "save.bin"), await text(`${STAMP}_${id}`, "save.bin")]).toEqual(["earlier", "this one"]);
    expect(await bucket.store.find({ playerId: PLAYER, saveId: id, receivedAt: AT })).toBe(`${STAMP}_${id}`);
  });

  test("a bucket put with no claimed folder, or a folder that cannot be its save's, writes nothing", async () => {
    const id = await addSave(bytes("x"), PLAYER, AT);
    const files = [{ name: "save.bin", bytes: bytes("x") }];
    await expect(bucket.store.put({ playerId: PLAYER, saveId: id, receivedAt: AT }, files)).rejects.toThrow(/no claimed archive folder/);
    await expect(bucket.store.put({ playerId: PLAYER, saveId: id, receivedAt: AT, folder: `${STAMP}_${id + 1}` }, files)).rejects.toThrow(/no claimed archive folder/);
    expect(await bucket.folders()).toEqual([]);
  });
}, { skip: swiftSkipReason });
