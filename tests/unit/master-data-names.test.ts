import { describe, expect, test } from "bun:test";
import { buildNames, type SeriesMember, type Servers } from "../../src/catalogue/master-data/names.ts";
import type { Region, Row, Server } from "../../src/catalogue/master-data/read.ts";

type Files = Record<string, Row[]>;

/** A server holding the given master-data rows (what scripts/master-data.ts reads from a checkout). */
function server(region: Region, files: Files): Server {
  return {
    region,
    repo: `test/${region}`,
    commit: "0".repeat(40),
    dataVersion: "1.0.0.0",
    rows: (file) => new Map((files[file] ?? []).map((row) => [row.id, row])),
  };
}

const characters = (names: [number, string][]) => ({ "gameCharacters.json": names.map(([id, givenName]) => ({ id, givenName })) });
const memoria = (names: [number, string][]) => ({
  "mysekaiMaterials.json": names.map(([cid, name]) => ({ id: 34 + cid, name })),
  "mysekaiMaterialGameCharacterRelations.json": names.map(([cid], i) => ({ id: i + 1, mysekaiMaterialId: 34 + cid, gameCharacterId: cid })),
});
const withRows = (base: Files, file: string, rows: Row[]): Files => ({ ...base, [file]: [...(base[file] ?? []), ...rows] });

const jp = server("jp", withRows({ ...characters([[1, "一歌"], [6, "遥"]]), ...memoria([[1, "スカイブルーメモリア"], [6, "ストリクトブルーメモリア"]]) }, "materials.json", [
  { id: 174, name: "祝祭のあまつゆ（スカイブルー）" },
  { id: 179, name: "祝祭のあまつゆ（ストリクトブルー）" },
]));
// KR has released Haruka's dew only; its memoria names share the affix " 메모리아".
const krBase = { ...characters([[1, " 이치카"], [6, " 하루카"]]), ...memoria([[1, "스카이블루 메모리아"], [6, "스트릭트블루 메모리아"]]) };
const kr = server("kr", withRows(krBase, "materials.json", [{ id: 179, name: "축제의 이슬(스트릭트블루)" }]));
// EN has released none: the English pattern is the one made in curation.ts.
const en = server("en", { ...characters([[1, "Ichika"], [6, "Haruka"]]), ...memoria([[1, "Sky Blue Memoria"], [2, "Passionfruit Yellow Memoria"], [6, "Strong Blue Memoria"]]) });
const noSeries = (region: Region) => server(region, {});
const servers = { jp, en, kr, cn: noSeries("cn"), tw: noSeries("tw") } as Servers;
const readMaterial = (s: Server, key: string) => (s.rows("materials.json").get(Number(key.split(":")[1]))?.name as string | undefined) ?? null;
const members = new Map<string, SeriesMember>([
  ["material:174", { series: "dew", characterId: 1 }],
  ["material:179", { series: "dew", characterId: 6 }],
]);

describe("master-data names", () => {
  test("a server's own name wins; a missing one is composed in the pattern it uses, or made here for EN", () => {
    const withoutCnTw = { ...servers, cn: kr, tw: kr } as Servers;
    const ichika = buildNames("material:174", withoutCnTw, readMaterial, members);
    expect(ichika.name).toMatchObject({ ja: "祝祭のあまつゆ（スカイブルー）", ko: "축제의 이슬(스카이블루)", en: "Festive Dew (Sky Blue)" });
    expect(ichika.composed).toContain("ko");
    expect(ichika.translated).toEqual(["en"]);
    const haruka = buildNames("material:179", withoutCnTw, readMaterial, members);
    expect(haruka.name.ko).toBe("축제의 이슬(스트릭트블루)");
    expect(haruka.composed).toBeUndefined();
  });

  test("a name no server has and nothing composes stops the generator and says which", () => {
    expect(() => buildNames("material:174", servers, readMaterial, members)).toThrow(/material:174: no zh name in test\/cn/);
    expect(() => buildNames("material:999", servers, readMaterial, new Map())).toThrow(/material:999: no ja name in test\/jp/);
  });
});
