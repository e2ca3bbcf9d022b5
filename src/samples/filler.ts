/**
 * The other user tables a real MySekai response carries next to the harvest maps. Nothing reads
 * them; they exist so a synthetic save has the real one's size (~200 KB) and shape for the
 * decoder, the archive and the benchmarks. Record shapes are plausible, not authoritative.
 */
import type { Random } from "./random.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

function obtainedAt(random: Random, now: number): number {
  return now - random.int(1, 400) * DAY_MS + random.int(0, DAY_MS - 1);
}

export function makeFillerTables(random: Random, now: number, userId: bigint): Record<string, unknown> {
  const instanceBase = userId / 1_000_000n;
  return {
    userMysekaiGamedata: {
      userId,
      mysekaiRank: random.int(10, 40),
      totalExp: random.int(10_000, 900_000),
      refreshedAt: now - random.int(1, 120) * 60_000,
      isMysekaiTutorialEnd: true,
    },
    userMysekaiMaterials: range(96).map((index) => ({
      mysekaiMaterialId: index + 1,
      quantity: random.int(0, 999),
    })),
    userMysekaiItems: range(40).map((index) => ({
      mysekaiItemId: index + 1,
      quantity: random.int(0, 99),
    })),
    userMysekaiFixtures: range(500).map((index) => ({
      mysekaiFixtureId: 1 + index,
      obtainedCount: random.int(1, 6),
      userMysekaiFixtureStatus: random.chance(0.9) ? "obtained" : "crafted",
      obtainedAt: obtainedAt(random, now),
    })),
    userMysekaiCanvases: range(120).map((index) => ({
      mysekaiCanvasId: 1 + index,
      quantity: random.int(0, 12),
      obtainedAt: obtainedAt(random, now),
    })),
    userMysekaiBlueprints: range(400).map((index) => ({
      mysekaiBlueprintId: 1 + index,
      obtainedAt: obtainedAt(random, now),
      craftCount: random.int(0, 5),
    })),
    userMysekaiSiteHousingLayouts: range(350).map((index) => ({
      userMysekaiFixtureInstanceId: instanceBase + BigInt(index),
      mysekaiSiteId: random.pick([1, 2, 3, 4]),
      mysekaiFixtureId: random.int(1, 500),
      layoutType: random.pick(["floor_appearance", "surface_appearance", "main"]),
      positionX: random.int(-40, 40),
      positionY: random.int(0, 8),
      positionZ: random.int(-40, 40),
      rotation: random.pick([0, 90, 180, 270]),
    })),
    userMysekaiGateCharacterVisit: {
      userMysekaiGate: { mysekaiGateId: random.int(1, 5), mysekaiGateLevel: random.int(1, 40) },
      userMysekaiGateCharacters: range(4).map(() => ({ gameCharacterId: random.int(1, 26), isVisited: random.chance(0.5) })),
    },
  };
}

/** Two days of weather, two 12-hour periods each, anchored on the game day that holds `now`. */
export function makePhenomenaSchedules(random: Random, now: number): Array<Record<string, unknown>> {
  const dayStart = now - (now % DAY_MS);
  return [0, 1].flatMap((day) =>
    [1, 2].map((mysekaiRefreshTimePeriodId) => ({
      mysekaiRefreshTimePeriodId,
      scheduleDate: dayStart + day * DAY_MS,
      mysekaiPhenomenaId: random.int(1, 17),
    })),
  );
}
