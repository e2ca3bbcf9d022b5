import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveStamp, removeStaleTemp, writeArchive } from "../../src/archive/write.ts";

const root = mkdtempSync(join(tmpdir(), "mysekai-archive-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = Date.UTC(2026, 10, 23, 6, 15, 42, 500);
const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

describe("writeArchive", () => {
  test("names the folder by the UTC second it was received", () => {
    expect(archiveStamp(at)).toBe("20261123_061542");
  });

  test("two saves of one player in the same second get two folders", async () => {
    const first = await writeArchive({ root, playerId: "123", saveId: 1, receivedAt: at, files: [file("save.bin", "one")] });
    const second = await writeArchive({ root, playerId: "123", saveId: 2, receivedAt: at + 300, files: [file("save.bin", "two")] });
    expect(first).toBe("by-id/123/20261123_061542");
    expect(second).toBe("by-id/123/20261123_061542_2");
    expect(readFileSync(join(root, second, "save.bin"), "utf8")).toBe("two");
  });

  test("running again for the same save adopts its folder (a crash between rename and commit)", async () => {
    const again = await writeArchive({ root, playerId: "123", saveId: 2, receivedAt: at, files: [file("save.bin", "two, again")] });
    expect(again).toBe("by-id/123/20261123_061542_2");
    expect(readdirSync(join(root, "by-id", "123")).sort()).toEqual(["20261123_061542", "20261123_061542_2"]);
    expect(readFileSync(join(root, again, "save.bin"), "utf8")).toBe("two, again");
    expect(readdirSync(join(root, again)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(readdirSync(join(root, ".tmp"))).toEqual([]);
  });

  test("a rewrite interrupted after its temp file leaves that file under .tmp, not in the committed folder", async () => {
    const { mkdirSync } = await import("node:fs");
    const dir = join(root, "by-id", "123", "20261123_061542_2");
    // A directory where the file should go makes the rename fail after the temp file is written and flushed.
    mkdirSync(join(dir, "blocked.txt", "inside"), { recursive: true });
    await expect(writeArchive({ root, playerId: "123", saveId: 2, receivedAt: at, files: [file("blocked.txt", "x")] })).rejects.toThrow();
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(readdirSync(join(root, ".tmp")).filter((name) => name.startsWith("blocked.txt."))).toHaveLength(1);
    expect(await removeStaleTemp(root, 0, Date.now() + 1000)).toBe(1);
  });

  test("nothing half-written is visible: the temp folder is gone after the rename", async () => {
    await writeArchive({ root, playerId: "unknown", saveId: 3, receivedAt: at, files: [file("a.txt", "a"), file("b.txt", "b")] });
    expect(readdirSync(join(root, ".tmp"))).toEqual([]);
  });

  test("files still drawing: the ones there are written at once, the folder appears only once the last is in", async () => {
    let finish!: (bytes: Uint8Array) => void;
    const map = new Promise<Uint8Array>((resolve) => (finish = resolve));
    const writing = writeArchive({ root, playerId: "456", saveId: 4, receivedAt: at, files: [file("save.bin", "four"), { name: "site_1.png", bytes: map }] });
    const tmp = join(root, ".tmp");
    const early = () => readdirSync(tmp).some((name) => name.startsWith("4-") && existsSync(join(tmp, name, "save.bin")));
    for (let i = 0; i < 500 && !early(); i++) await Bun.sleep(5);
    expect(early()).toBe(true);
    expect(readdirSync(join(root, "by-id", "456"))).toEqual([]);
    finish(new TextEncoder().encode("png"));
    const relPath = await writing;
    expect(readdirSync(join(root, relPath)).sort()).toEqual([".save-id", "save.bin", "site_1.png"].sort());
    expect(readFileSync(join(root, relPath, "site_1.png"), "utf8")).toBe("png");
  });

  test("a file whose drawing fails fails the write, and no folder of the save appears", async () => {
    const failed = new Promise<Uint8Array>((_, reject) => setTimeout(() => reject(new Error("render failed")), 20));
    await expect(writeArchive({ root, playerId: "789", saveId: 5, receivedAt: at, files: [file("save.bin", "five"), { name: "site_1.png", bytes: failed }] })).rejects.toThrow(/render failed/);
    expect(readdirSync(join(root, "by-id", "789"))).toEqual([]);
    // Nor a temp folder waiting an hour for the sweep: each failed attempt would leave one.
    expect(readdirSync(join(root, ".tmp")).filter((name) => name.startsWith("5-"))).toEqual([]);
  });

  test("player ids other than digits or unknown and unsafe file names are refused", async () => {
    const base = { root, saveId: 9, receivedAt: at };
    await expect(writeArchive({ ...base, playerId: "../etc", files: [] })).rejects.toThrow(/player id/);
    await expect(writeArchive({ ...base, playerId: "1", files: [file("../x", "")] })).rejects.toThrow(/bad archive file name/);
    expect(existsSync(join(root, "etc"))).toBe(false);
  });

  test("stale temp folders are removed, fresh ones kept", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(root, ".tmp", "left-by-a-crash"), { recursive: true });
    expect(await removeStaleTemp(root, 60_000)).toBe(0);
    expect(await removeStaleTemp(root, 0, Date.now() + 1000)).toBe(1);
  });
});
