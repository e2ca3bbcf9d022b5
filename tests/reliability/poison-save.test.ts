/**
 * The crash policy's other half (crash-safety.test.ts shows random kills never fail a save): a save that is
 * running every time the process dies, as one that crashes the server would be, is parked as `failed` with its
 * reason after POISON_CRASHES deaths, its count in `jobs.crashes`; a save queued behind it is archived.
 */
import { afterAll, expect, test } from "bun:test";
import { POISON_CRASHES } from "../../src/pipeline/queue.ts";
import { SAVE_LIMITS } from "../../src/save/limits.ts";
import { one } from "../helpers/db.ts";
import { saveAtCaps } from "../helpers/maps-fixtures.ts";
import { encryptedSave, encryptRaw, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/server.ts";

const { pair, env } = testKeys();
const serverEnv = { ...env, NOTIFY_DEFAULT: "none" };
const started: RunningServer[] = [];
afterAll(async () => {
  for (const server of started) await server.stop("SIGKILL");
  started[0]?.cleanup();
});

async function launch(dataDir?: string): Promise<RunningServer> {
  const server = await startServer({ env: serverEnv, ...(dataDir && { dataDir }) });
  started.push(server);
  return server;
}

interface Job { state: string; crashes: number; attempts: number; last_error: string | null }
const jobOf = (server: RunningServer, uploadId: string) =>
  one<Job>(server, "SELECT j.state, j.crashes, j.attempts, j.last_error FROM jobs j JOIN upload_tasks u ON u.save_id = j.save_id WHERE u.upload_id = ?", uploadId);

test(`a save running at each of ${POISON_CRASHES} deaths in a row is parked with its reason; the save behind it is archived`, async () => {
  let server = await launch();
  // At the caps: legal, and long enough to draw (~1 s) that the kill lands while it runs.
  expect((await uploadSave(server.url, encryptRaw(pair, rawSave(saveAtCaps(SAVE_LIMITS))), "poison")).status).toBe(200);
  let deaths = 0;
  // Bounded: a guard that never parks shows up as more deaths than the policy allows.
  while (deaths <= POISON_CRASHES) {
    const current = server;
    const state = await eventually(() => {
      const job = jobOf(current, "poison");
      return job !== undefined && job.state !== "pending" && job.state;
    }, 30_000, "the poison save running or parked");
    if (state !== "running") break;
    await server.stop("SIGKILL");
    deaths++;
    server = await launch(server.dataDir);
    // Queued after the first death: it must wait for, not die with, the suspect (which now runs alone).
    if (deaths === 1) expect((await uploadSave(server.url, encryptedSave(pair), "behind")).status).toBe(200);
  }
  expect(deaths).toBe(POISON_CRASHES);
  const parked = jobOf(server, "poison")!;
  expect(parked).toMatchObject({ state: "failed", crashes: POISON_CRASHES, attempts: 0 });
  expect(parked.last_error).toStartWith(`parked: the process died ${POISON_CRASHES} times in a row`);
  await server.waitForOutput(/\[JOB\] WARN parked jobs that were running each time the process died/);
  await eventually(() => jobOf(server, "behind")?.state === "done", 30_000, "the save behind archived");
  expect(jobOf(server, "behind")!.crashes).toBe(0);
}, 120_000);
