/**
 * The crash policy's other half (crash-safety.test.ts shows that kills of the service never fail a save): a job
 * the service died running runs its tasks in a process of their own from then on; when that process dies
 * POISON_CRASHES times in a row, as it would for a save that crashes whatever runs it, the job is parked as
 * `failed` with its reason and its counts in columns, while the service itself keeps running other saves.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { SAVE_LIMITS } from "../../src/save/limits.ts";
import { saveAtCaps } from "../helpers/maps-fixtures.ts";
import { isAlive } from "../helpers/proc.ts";
import { reads } from "../helpers/store-reads.ts";
import { encryptedSave, encryptRaw, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/server.ts";
import { POISON_CRASHES } from "../../src/store/model/jobs.ts";

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

async function jobOf(server: RunningServer, uploadId: string) {
  const saveId = await reads(server).saveOfUpload(uploadId);
  return saveId === undefined ? undefined : reads(server).job(saveId);
}
/** The service's child processes (its tasks' own processes). */
const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);

test(`a save whose own task process dies ${POISON_CRASHES} times is parked with its reason; the service and the saves beside it carry on`, async () => {
  const first = await launch();
  // The game's 4 sites at the density caps (all 8 do not fit one upload): legal, and long enough to draw (> 1 s)
  // that the kill lands while it runs.
  expect((await uploadSave(first.url, encryptRaw(pair, rawSave(saveAtCaps({ ...SAVE_LIMITS, sites: 4 }))), "poison")).status).toBe(200);
  await eventually(async () => (await jobOf(first, "poison"))?.state === "running", 30_000, "the save running");
  await first.stop("SIGKILL");

  const server = await launch(first.dataDir);
  expect(await jobOf(server, "poison")).toMatchObject({ process_deaths: 1, crashes: 0 });
  expect((await uploadSave(server.url, encryptedSave(pair), "beside")).status).toBe(200);
  // Every task process the service starts for it dies at once, as a save that crashes its renderer would make it.
  // Each process counted once: a killed one stays listed among the children until the service reaps it.
  const killed = new Set<number>();
  await eventually(async () => {
    for (const pid of childrenOf(server.pid)) {
      if (killed.has(pid)) continue;
      process.kill(pid, "SIGKILL");
      killed.add(pid);
    }
    return (await jobOf(server, "poison"))?.state === "failed" || killed.size > POISON_CRASHES;
  }, 60_000, "the save parked");
  expect(killed.size).toBe(POISON_CRASHES);
  const parked = (await jobOf(server, "poison"))!;
  expect(parked).toMatchObject({ state: "failed", crashes: POISON_CRASHES, attempts: 0 });
  expect(parked.last_error).toStartWith(`parked: its task's own process died ${POISON_CRASHES} times in a row (last: signal SIGKILL)`);
  expect(isAlive(server.pid)).toBe(true);
  await eventually(async () => (await jobOf(server, "beside"))?.state === "done", 30_000, "the save beside it archived");
  expect(await jobOf(server, "beside")).toMatchObject({ process_deaths: 0, crashes: 0 });
}, 120_000);
