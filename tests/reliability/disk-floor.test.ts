/**
 * The disk floor: below MIN_FREE_DISK_MB free on DATA_DIR, new uploads and reports get 507 before their body is
 * read; /healthz answers, and saves accepted earlier still go through the pipeline.
 */
import { describe, expect, test } from "bun:test";
import { reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile } from "../helpers/in-process.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";


const start = serversForThisFile();

const FULL = "507 server storage is full; try again later";
const answer = async (response: Response) => `${response.status} ${await response.text()}`;

describe("the free-disk floor", () => {
  test("above the floor saves are accepted; below it new ones get 507 while the accepted one is archived", async () => {
    const { pair, env } = testKeys();
    // No key yet: the save is accepted and waits in the database.
    const roomy = await start({ MIN_FREE_DISK_MB: "1" });
    expect(await answer(await uploadSave(roomy.url, encryptedSave(pair), "floor-1"))).toBe("200 OK");
    const saveId = (await reads(roomy).saveOfUpload("floor-1"))!;
    await eventually(async () => (await reads(roomy).job(saveId))?.state === "waiting_for_key", 10_000, "waiting for key");
    await roomy.stop();

    // Restart with the key and a floor far above any real disk: the pipeline still archives the saved bytes.
    const full = await start({ ...env, MIN_FREE_DISK_MB: "1000000000" }, roomy.dataDir);
    await full.waitForOutput(/\[SERVER\] WARN free disk space below MIN_FREE_DISK_MB/);
    expect(await answer(await uploadSave(full.url, encryptedSave(pair), "floor-2"))).toBe(FULL);
    expect(await answer(await fetch(`${full.url}/uploadMySekai`, { method: "POST", body: "x" }))).toBe(FULL);
    const report = await fetch(`${full.url}/capture/report`, { method: "POST", body: '{"log":{"entries":[]}}', headers: { "content-type": "application/json" } });
    expect(await answer(report)).toBe(FULL);
    const health = await fetch(`${full.url}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { reasons: string[] }).reasons).toEqual(["free disk space below MIN_FREE_DISK_MB"]);
    await eventually(async () => (await reads(full).job(saveId))?.state === "done", 20_000, "accepted save archived below the floor");
    expect(await reads(full).archive(saveId)).toBeDefined();
    expect(await reads(full).uploadTasks("floor-2")).toEqual([]);
    // One warning when the floor is crossed, not one per request.
    expect(full.output().match(/WARN free disk space below/g)).toHaveLength(1);
  });
});
