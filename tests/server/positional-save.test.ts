/**
 * The real CN save through the real service in both forms of its harvest records: as the game sent it in March
 * 2026 (named fields) and rewritten by position (CN client 6.4.0). Same maps, summary.json, rare text and data API
 * answer (the object form either way); the archived save.bin is the bytes as received. A positional save with a
 * broken record fails with the reason on the status page and in `cli jobs`, and a warning in the log.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine, ownerCliWith } from "../helpers/owner-cli.ts";
import { positionalRealSave, REAL_SAVE_PLAYER, realSave, restoredRealSave, uploadRealForm } from "../helpers/real-save.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });

async function ingest(server: RunningServer, body: Uint8Array, uploadId: string, state: "done" | "failed") {
  expect((await uploadRealForm(server.url, body, uploadId)).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, saveId, state, 60_000, `save ${saveId} ${state}`);
  return saveId;
}

async function archived(server: RunningServer, saveId: number) {
  const { rel_path } = (await reads(server).archive(saveId))!;
  return (name: string) => readFileSync(join(server.dataDir, "archive", rel_path, name));
}

async function dataApi(server: RunningServer): Promise<Record<string, unknown>> {
  const token = await ownerCliLastLine(server, "api-tokens", "add", "bot");
  const response = await fetch(`${server.url}/api/cn/user/${REAL_SAVE_PLAYER}/mysekai`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const { upload_time: _, ...body } = (await response.json()) as Record<string, unknown>;
  return body;
}

describe("the real CN save, named and positional", () => {
  test("the same maps, summary.json, rare text and data API JSON; save.bin kept as received", async () => {
    const { pair, env } = testKeys();
    const [named, positional] = await Promise.all([start(env), start(env)]);
    const positionalBytes = encryptRaw(pair, positionalRealSave());
    const [namedId, positionalId] = await Promise.all([ingest(named, encryptRaw(pair, realSave()), "named", "done"), ingest(positional, positionalBytes, "positional", "done")]);
    const a = await archived(named, namedId);
    const b = await archived(positional, positionalId);

    const summary = (read: typeof a) => {
      const { capturedAt: _, ...rest } = JSON.parse(read("summary.json").toString("utf8"));
      return rest;
    };
    expect(summary(b)).toEqual(summary(a));
    expect(summary(b).sites.map((s: { siteId: number }) => s.siteId)).toEqual([5, 6, 7, 8]);
    expect(summary(b).rareFinds.map((r: { name: string; sites: number[] }) => [r.name, r.sites])).toEqual([["月光石", [6]], ["「世界」晶粒", [6]]]); // 93 is rare as lunabot ranks it
    expect(b("rare_resources.txt").toString("utf8")).toBe(a("rare_resources.txt").toString("utf8"));
    expect(b("rare_resources.txt").toString("utf8")).toContain("月光石");
    for (const png of ["site_5.png", "site_6.png", "site_7.png", "site_8.png", "overview.png"]) expect(b(png).equals(a(png))).toBe(true);
    expect(b("save.bin").equals(positionalBytes)).toBe(true);

    // Bots read named fields: the positional save is served in the object form (its group ids as explicit nulls).
    const served = await dataApi(positional);
    expect({ ...served, source: undefined, local_source: undefined }).toEqual({ ...restoredRealSave(), source: undefined, local_source: undefined });
    const { updatedResources: _a, ...namedTop } = await dataApi(named);
    const { updatedResources: _b, ...positionalTop } = served;
    expect(positionalTop).toEqual(namedTop);
  }, 120_000);

  test("a positional save with a broken record fails with the reason: status page, cli jobs, a warning; never 'nothing rare'", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    const broken = positionalRealSave();
    const maps = (broken.updatedResources as { userMysekaiHarvestMaps: unknown[][][][] }).userMysekaiHarvestMaps;
    maps[1]![2]![17] = maps[1]![2]![17]!.slice(0, 6);
    const saveId = await ingest(server, encryptRaw(pair, broken), "broken", "failed");
    const reason = "harvest records cannot be read: site 6 drop 17: position 6 (mysekaiSiteHarvestResourceDropStatus) is missing";
    expect((await reads(server).job(saveId))!.last_error).toBe(reason);
    expect(await reads(server).archive(saveId)).toBeUndefined();
    expect(await (await fetch(`${server.url}/`)).text()).toContain(reason);
    const jobs = await ownerCli(server, "jobs", "--state", "failed");
    expect(jobs.out).toContain("harvest records cannot be read: site 6 drop 17");
    await server.waitForOutput(/\[JOB\] WARN stage finished .*stage=generate .*outcome=failed note="harvest records cannot be read: site 6 drop 17/);
  }, 60_000);

  test("cli inspect reads the positional form like the named one, and names a broken record", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    const file = join(server.dataDir, "positional.bin");
    const inspect = async (raw: Record<string, unknown>) => {
      await Bun.write(file, encryptRaw(pair, raw));
      return ownerCliWith(env, server, "inspect", file);
    };
    const [named, positional] = [await inspect(realSave()), await inspect(positionalRealSave())];
    expect(positional.code).toBe(0);
    expect(positional.out.replace(/^decrypted with \S+/, "")).toBe(named.out.replace(/^decrypted with \S+/, ""));
    expect(positional.out).toContain("4 sites");
    expect(positional.out).toContain("月光石");
    const broken = positionalRealSave();
    (broken.updatedResources as { userMysekaiHarvestMaps: unknown[][] }).userMysekaiHarvestMaps[0]![0] = "5";
    const refused = await inspect(broken);
    expect([refused.code, refused.err.trim()]).toEqual([1, "unreadable: harvest records cannot be read: harvest map 0: position 0 (mysekaiSiteId) is not an integer"]);
  }, 60_000);
});
