/**
 * The owner updates the catalogue while the service runs (issue 44, point 4): `cli catalogue update` from a local
 * HTTP server in the master-data layout, on SQLite and on a hub's PostgreSQL. The running service draws with it
 * within CATALOGUE_CHECK_SECONDS (the worker threads too), the status page names the source and version, and a
 * partial source is refused with the reason and changes nothing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useStoredCatalogue } from "../../src/catalogue/loaded.ts";
import type { SummaryJson } from "../../src/maps/summary.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { MASTER_DATA_FIXTURES, serveMasterData } from "../helpers/master-data-server.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { harvestMapsOf, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none", CATALOGUE_CHECK_SECONDS: "0.2" });
// The in-process services used the update on this process's thread: the files after this one start from the built-in.
afterAll(() => void useStoredCatalogue(null));
const NEW_NAME = "更新测试素材";
const NEW_TITLE = "更新测试曲";

/** The real CN save with one drop made material 150 and one music record 99001, both unknown to the built-in catalogue. */
function saveWithNewIds(quantity: number): Record<string, unknown> {
  const save = realSave();
  const drops = harvestMapsOf(save)[0]!.userMysekaiSiteHarvestResourceDrops as Record<string, unknown>[];
  Object.assign(drops[0]!, { resourceType: "mysekai_material", resourceId: 150, quantity });
  Object.assign(drops[1]!, { resourceType: "mysekai_music_record", resourceId: 99001, quantity: 1 });
  return save;
}

function summaries(server: RunningServer): SummaryJson[] {
  const found: SummaryJson[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === "summary.json") {
        // A folder still being written (a temp folder before its rename) is not there yet.
        try {
          found.push(JSON.parse(readFileSync(join(dir, entry.name), "utf8")) as SummaryJson);
        } catch {}
      }
    }
  };
  const root = join(server.dataDir, "archive");
  if (existsSync(root)) walk(root);
  return found;
}

async function drawn(server: RunningServer, pair: ReturnType<typeof testKeys>["pair"], quantity: number) {
  const count = summaries(server).length;
  expect((await uploadRealForm(server.url, encryptRaw(pair, saveWithNewIds(quantity)), `catalogue-${quantity}`)).status).toBe(200);
  await eventually(() => summaries(server).length > count, 60_000, "the save archived");
  const summary = summaries(server).find((s) => s.totals.some((t) => t.type === "mysekai_material" && t.id === 150 && t.total === quantity))!;
  return {
    material: summary.totals.find((t) => t.type === "mysekai_material" && t.id === 150)!.name,
    song: summary.musicRecords.find((r) => r.id === 99001)?.title ?? null,
  };
}

const statusPage = async (server: RunningServer) => (await fetch(`${server.url}/`, { headers: { "Accept-Language": "en" } })).text();

for (const store of ["sqlite", "postgres"] as const) {
  describe.skipIf(store === "postgres" && POSTGRES_MISSING !== null)(`catalogue update on ${store}`, () => {
    test("a running service draws with the update within the check interval; the status page names its source; a partial source changes nothing", async () => {
      const { pair, env } = testKeys();
      const hub: Record<string, string> = store === "postgres" ? hubSettings(await databaseForThisFile("empty")) : {};
      const server = await start({ ...env, ...hub });
      const master = serveMasterData();
      const partial = mkdtempSync(join(tmpdir(), "catalogue-partial-"));
      try {
        const before = await drawn(server, pair, 1);
        expect(before.material).not.toBe(NEW_NAME);
        expect(before.song).not.toBe(NEW_TITLE);
        expect(await statusPage(server)).not.toContain("6.5.0.10");

        const source = `${master.url}/cn/`;
        const update = await ownerCliWith(hub, server, "catalogue", "update", `cn=${source}`);
        expect(update.code).toBe(0);
        // 测 and 试 are in no built-in name: the owner is told the maps' font cannot draw them.
        expect(update.err).toContain("map font lacks 2 character(s) of the new names (测试)");
        expect(update.out).toContain("added 1 resource(s)");
        expect(update.out).toContain("1 song title(s)");

        const page = await eventually(async () => {
          const text = await statusPage(server);
          return text.includes("6.5.0.10") && text;
        }, 30_000, "the running service using the update");
        expect(page).toContain(source);
        expect(page).toContain("built-in (this release)");

        expect(await drawn(server, pair, 2)).toEqual({ material: NEW_NAME, song: NEW_TITLE });

        cpSync(join(MASTER_DATA_FIXTURES, "cn"), partial, { recursive: true });
        unlinkSync(join(partial, "mysekaiMaterials.json"));
        const shown = await ownerCliWith(hub, server, "catalogue", "show");
        const refused = await ownerCliWith(hub, server, "catalogue", "update", `cn=${partial}`);
        expect(refused.code).toBe(1);
        expect(refused.err).toContain("mysekaiMaterials.json is missing");
        expect(refused.err).toContain("nothing changed");
        expect((await ownerCliWith(hub, server, "catalogue", "show")).out).toBe(shown.out);
        expect(shown.out).toContain(`cn: updated`);
      } finally {
        master.stop();
        rmSync(partial, { recursive: true, force: true });
      }
    }, 180_000);
  });
}
