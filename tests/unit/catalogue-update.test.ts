/**
 * The owner's catalogue update (src/catalogue/): from one server's folder or a local HTTP server in the layout of
 * Sekai-World's master-data repositories, only what the built-in lacks is added, each name under its own server's
 * language; a broken or partial source is refused with the reason; the maps' lookups use the update once loaded.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtInCatalogue, useStoredCatalogue } from "../../src/catalogue/loaded.ts";
import { loadSource, MAX_FILE_BYTES, parseSources } from "../../src/catalogue/sources.ts";
import { buildUpdate } from "../../src/catalogue/update.ts";
import { catalogResources, findResource } from "../../src/maps/catalog.ts";
import { musicRecordTitle } from "../../src/maps/music-titles.ts";
import { MASTER_DATA_FIXTURES, serveMasterData } from "../helpers/master-data-server.ts";

const CN = join(MASTER_DATA_FIXTURES, "cn");
const NOW = new Date(Date.UTC(2026, 11, 7, 8, 0, 0));
const NEW_MATERIAL = { type: "mysekai_material", id: 150, name: { zh: "更新测试素材" }, kind: "junk" };

// The catalogue in use is this process's: another file's in-process service may have left an update in use.
beforeEach(() => useStoredCatalogue(null));
afterEach(() => useStoredCatalogue(null));

function brokenCopy(breakIt: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "catalogue-source-"));
  cpSync(CN, dir, { recursive: true });
  breakIt(dir);
  return dir;
}

test("one server's folder adds what the built-in lacks, named in that server's language only; the rest stays", async () => {
  expect(findResource("mysekai_material", 150)).toBeNull();
  expect(musicRecordTitle(99001, "zh-Hans")).toBeNull();
  const before61 = findResource("mysekai_material", 61);
  const resources = catalogResources().length;

  const { owner, added } = buildUpdate({ given: [await loadSource("cn", CN)], builtIn: builtInCatalogue(), previous: null, now: NOW });
  expect(owner.catalog.resources).toEqual([expect.objectContaining(NEW_MATERIAL)]);
  expect(owner.music.titles).toEqual({ "99001": { cn: "更新测试曲" } });
  expect(added).toEqual({ sites: 0, resources: 1, phenomena: 0, harvestFixtures: 0, parties: 0, songTitles: 1 });
  expect(owner.catalog.masterData).toEqual([{ region: "cn", repo: CN, commit: "", dataVersion: "6.5.0.10", updatedAt: NOW.toISOString() }]);

  expect(useStoredCatalogue({ stamp: "1", text: JSON.stringify(owner) })).toBe(true);
  expect(findResource("mysekai_material", 150)).toMatchObject(NEW_MATERIAL);
  expect(musicRecordTitle(99001, "zh-Hans")).toBe("更新测试曲");
  // Japanese maps fall back to the only title there is, as for any song one server alone has.
  expect(musicRecordTitle(99001, "ja")).toBe("更新测试曲");
  expect(findResource("mysekai_material", 61)).toEqual(before61);
  expect(catalogResources().length).toBe(resources + 1);
  useStoredCatalogue(null);
  expect(findResource("mysekai_material", 150)).toBeNull();
});

test("a local HTTP server gives the same update as the folder", async () => {
  const server = serveMasterData();
  try {
    const fromUrl = buildUpdate({ given: [await loadSource("cn", `${server.url}/cn/`)], builtIn: builtInCatalogue(), previous: null, now: NOW });
    const fromFolder = buildUpdate({ given: [await loadSource("cn", CN)], builtIn: builtInCatalogue(), previous: null, now: NOW });
    expect(fromUrl.owner.catalog.resources).toEqual(fromFolder.owner.catalog.resources);
    expect(fromUrl.owner.music.titles).toEqual(fromFolder.owner.music.titles);
    expect(fromUrl.owner.catalog.masterData[0]!.repo).toBe(`${server.url}/cn/`);
    expect(server.requests).toContain("/cn/birthdayParties.json");
  } finally {
    server.stop();
  }
});

test("a previous update's entries stay (its names first); the built-in wins for every id it has", async () => {
  const first = buildUpdate({ given: [await loadSource("cn", CN)], builtIn: builtInCatalogue(), previous: null, now: NOW }).owner;
  first.catalog.resources[0]!.name = { zh: "旧名" };
  first.catalog.resources.push({ type: "mysekai_material", id: 61, name: { zh: "不该覆盖" }, tier: "common", kind: "junk" });
  useStoredCatalogue({ stamp: "1", text: JSON.stringify(first) });
  expect(findResource("mysekai_material", 61)!.name.zh).toBe("雪之结晶");

  const second = buildUpdate({ given: [await loadSource("cn", CN)], builtIn: builtInCatalogue(), previous: first, now: NOW });
  expect(second.owner.catalog.resources.map((r) => [r.id, r.name.zh])).toEqual([[150, "旧名"]]);
  expect(second.added.resources).toBe(0);
});

test("parseSources: region=address, --fetch's public addresses for bare regions or all five", () => {
  expect([...parseSources(["cn=/x", "jp"], true)]).toEqual([["cn", "/x"], ["jp", "https://raw.githubusercontent.com/Sekai-World/sekai-master-db-diff/main/"]]);
  expect([...parseSources([], true).keys()]).toEqual(["jp", "en", "cn", "tw", "kr"]);
  expect(parseSources([], true).get("tw")).toBe("https://raw.githubusercontent.com/Sekai-World/sekai-master-db-tc-diff/main/");
  expect(() => parseSources(["jp"], false)).toThrow(/not a source/);
  expect(() => parseSources(["xx=/x"], false)).toThrow(/not a source/);
  expect(() => parseSources([], false)).toThrow(/at least one/);
});

const BROKEN: [string, (dir: string) => void, RegExp][] = [
  ["a missing file", (dir) => unlinkSync(join(dir, "musics.json")), /musics\.json is missing/],
  ["a file cut short", (dir) => writeFileSync(join(dir, "mysekaiMaterials.json"), '[{"id":1,"name":"想'), /mysekaiMaterials\.json is not valid JSON/],
  ["rows without ids", (dir) => writeFileSync(join(dir, "materials.json"), '[{"name":"x"}]'), /materials\.json is not a list of rows/],
  ["an emptied file", (dir) => writeFileSync(join(dir, "mysekaiSites.json"), "[]"), /mysekaiSites\.json holds no rows/],
  ["no dataVersion", (dir) => writeFileSync(join(dir, "versions.json"), "{}"), /no dataVersion/],
  ["one id twice", (dir) => writeFileSync(join(dir, "mysekaiMaterials.json"), '[{"id":150,"name":"a"},{"id":150,"name":"b"}]'), /mysekaiMaterials\.json names one id twice/],
];

test("a folder's file that is a pipe (or a device) is refused at once, never read", async () => {
  const dir = brokenCopy((copy) => {
    unlinkSync(join(copy, "materials.json"));
    expect(Bun.spawnSync(["mkfifo", join(copy, "materials.json")]).exitCode).toBe(0);
  });
  try {
    await expect(loadSource("cn", dir)).rejects.toThrow(/materials\.json is not a regular file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a name with control or direction-override characters makes the update malformed: nothing is stored", async () => {
  const dir = brokenCopy((copy) => {
    const rows = JSON.parse(readFileSync(join(copy, "mysekaiMaterials.json"), "utf8")) as { id: number; name: string }[];
    writeFileSync(join(copy, "mysekaiMaterials.json"), JSON.stringify(rows.map((row) => (row.id === 150 ? { ...row, name: "evil\u202e\u001b[2Jname" } : row))));
  });
  try {
    const given = [await loadSource("cn", dir)];
    expect(() => buildUpdate({ given, builtIn: builtInCatalogue(), previous: null, now: NOW })).toThrow(/malformed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const [what, breakIt, reason] of BROKEN) {
  test(`${what} is refused with the reason, from a folder and from a URL`, async () => {
    const dir = brokenCopy(breakIt);
    const server = serveMasterData(dir);
    try {
      await expect(loadSource("cn", dir)).rejects.toThrow(reason);
      await expect(loadSource("cn", server.url)).rejects.toThrow(reason);
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("over HTTP: an error status is refused, and a file past the byte cap stops being read at the cap", async () => {
  let streamed = 0;
  const endless = () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          streamed += 1 << 20;
          controller.enqueue(new Uint8Array(1 << 20).fill(0x20));
        },
      }),
    );
  const server = serveMasterData(MASTER_DATA_FIXTURES, (path) => (path === "/cn/musics.json" ? new Response("busy", { status: 503 }) : undefined));
  const big = brokenCopy(() => {});
  try {
    await expect(loadSource("cn", `${server.url}/cn`)).rejects.toThrow(/musics\.json: the server answered HTTP 503/);
    const bigServer = serveMasterData(big, (path) => (path === "/mysekaiSites.json" ? endless() : undefined));
    try {
      await expect(loadSource("cn", bigServer.url)).rejects.toThrow(/mysekaiSites\.json is over 16 MB/);
    } finally {
      bigServer.stop();
    }
    // What the server made: the cap, and what its socket buffers ran ahead of the reader (~8 MB here).
    expect(streamed).toBeLessThan(2 * MAX_FILE_BYTES);
  } finally {
    server.stop();
    rmSync(big, { recursive: true, force: true });
  }
});

test("over HTTP: a file whose answer or body stalls is refused at the fetch timeout", async () => {
  const stalled = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("[{"));
    },
  });
  const server = serveMasterData(MASTER_DATA_FIXTURES, (path) => (path === "/cn/mysekaiItems.json" ? new Promise<Response>(() => {}) : undefined));
  const limits = { maxFileBytes: MAX_FILE_BYTES, fetchTimeoutMs: 500 };
  try {
    await expect(loadSource("cn", `${server.url}/cn`, limits)).rejects.toThrow(/mysekaiItems\.json: no complete answer within 0\.5 s/);
    const bodyStalls = serveMasterData(MASTER_DATA_FIXTURES, (path) => (path === "/cn/materials.json" ? new Response(stalled) : undefined));
    try {
      await expect(loadSource("cn", `${bodyStalls.url}/cn`, limits)).rejects.toThrow(/materials\.json: no complete answer within 0\.5 s/);
    } finally {
      bodyStalls.stop();
    }
  } finally {
    server.stop();
  }
});

test("a malformed stored update is never used: the catalogue in use stays", async () => {
  const owner = buildUpdate({ given: [await loadSource("cn", CN)], builtIn: builtInCatalogue(), previous: null, now: NOW }).owner;
  useStoredCatalogue({ stamp: "1", text: JSON.stringify(owner) });
  expect(() => useStoredCatalogue({ stamp: "2", text: JSON.stringify({ ...owner, catalog: { ...owner.catalog, resources: [{ type: "x", id: -1 }] } }) })).toThrow(/malformed/);
  expect(() => useStoredCatalogue({ stamp: "3", text: "{" })).toThrow(/not JSON/);
  expect(findResource("mysekai_material", 150)).toMatchObject(NEW_MATERIAL);
});

test("a party new in the update names its spawns and makes its materials top tier", async () => {
  const { partyBySpawnGroup } = await import("../../src/maps/catalog.ts");
  const dir = brokenCopy((copy) =>
    writeFileSync(
      join(copy, "birthdayParties.json"),
      JSON.stringify([{ id: 26, gameCharacterUnitId: 1, startAt: 1790000000000, birthdayStartAt: 1790200000000, closedAt: 1790400000000, deliveryItemMaterialId: null, deliveryRewardMysekaiMaterialId: 150, mysekaiSiteHarvestSpawnLimitedRelationGroupId: 2630, assetbundleName: "ichika_2027", mysekaiSiteHarvestFixtureId: 8027 }]),
    ),
  );
  expect(partyBySpawnGroup(2630)).toBeNull();
  const { owner, added } = buildUpdate({ given: [await loadSource("cn", dir)], builtIn: builtInCatalogue(), previous: null, now: NOW });
  expect(added.parties).toBe(1);
  expect(useStoredCatalogue({ stamp: "2", text: JSON.stringify(owner) })).toBe(true);
  expect(partyBySpawnGroup(2630)).toMatchObject({ assetbundleName: "ichika_2027", year: 2027, harvestFixtureId: 8027, character: expect.objectContaining({ zh: "一歌" }) });
  expect(findResource("mysekai_material", 150)?.tier).toBe("super");
  rmSync(dir, { recursive: true, force: true });
});
