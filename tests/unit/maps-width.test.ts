/** MAP_MAX_WIDTH_PX: maps drawn narrower than the phone-screen cap (and never wider), through the whole pipeline. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { generateOutputs } from "../../src/maps/index.ts";
import { MAP_MAX_WIDTH_PX } from "../../src/maps/limits.ts";
import { eventually, serversForThisFile } from "../helpers/in-process.ts";
import { drop, material, save, site } from "../helpers/maps-fixtures.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

/** Width and height from a PNG's IHDR. */
const pngSize = (png: Uint8Array) => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
};

const ctx = { playerId: "7412589630147258963", capturedAt: new Date("2025-03-01T00:30:00Z"), locale: "zh-Hans" as const, showHarvested: false, assetsDir: null, timeZone: "Asia/Shanghai" };
const start = serversForThisFile();

describe("MAP_MAX_WIDTH_PX", () => {
  test("defaults to the phone-screen cap; 100 up to the cap, anything else stops the start naming it", () => {
    expect(loadConfig({}).maps.maxWidthPx).toBe(MAP_MAX_WIDTH_PX);
    expect(loadConfig({ MAP_MAX_WIDTH_PX: "200" }).maps.maxWidthPx).toBe(200);
    for (const bad of ["99", String(MAP_MAX_WIDTH_PX + 1), "wide", "250.5"]) {
      expect(() => loadConfig({ MAP_MAX_WIDTH_PX: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ MAP_MAX_WIDTH_PX: bad })).toThrow(/MAP_MAX_WIDTH_PX/);
    }
  });

  test("every map is drawn that wide, aspect kept; a width past the cap is held to it", async () => {
    const s = save([site(5, [material(12, 0, 0), drop("mysekai_music_record", 3, 2, 2)])]);
    const full = await generateOutputs(s, ctx);
    const small = await generateOutputs(s, { ...ctx, maxWidthPx: 200 });
    for (const [i, file] of small.files.entries()) {
      if (!file.name.endsWith(".png")) continue;
      const [fullSize, smallSize] = [pngSize(full.files[i]!.bytes), pngSize(file.bytes)];
      expect(fullSize.width).toBeGreaterThan(200);
      expect(smallSize.width).toBe(200);
      expect(Math.abs(smallSize.height - (fullSize.height * 200) / fullSize.width)).toBeLessThanOrEqual(1);
    }
    const past = await generateOutputs(s, { ...ctx, maxWidthPx: 5000 });
    expect(pngSize(past.files.find((file) => file.name === "site_5.png")!.bytes).width).toBe(MAP_MAX_WIDTH_PX);
  });

  test("a server started with it archives maps that wide", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, MAP_MAX_WIDTH_PX: "200" });
    expect((await uploadSave(server.url, encryptedSave(pair), "narrow-1")).status).toBe(200);
    const dir = join(server.dataDir, "archive", "by-id", PLAYER_ID);
    const overview = await eventually(() => {
      const folder = existsSync(dir) ? readdirSync(dir)[0] : undefined;
      const file = folder && join(dir, folder, "overview.png");
      return file && existsSync(file) && file;
    }, 20_000, "the archived overview");
    expect(pngSize(await Bun.file(overview).bytes()).width).toBe(200);
  });
});
