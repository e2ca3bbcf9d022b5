/**
 * A hub's bucket slow, then away, under a running process (issue 35, point 4): the render's timeout covers the
 * render only, so a bucket slower than TASK_TIMEOUT_MS fails no save; a bucket away leaves the saves waiting, and
 * they are archived soon after it is back. Every save answered 200 is archived once and pushed once, none failed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hubDeployment } from "../helpers/deployments.ts";
import { startFlakyProxy, type FlakyProxy } from "../helpers/flaky-s3-proxy.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { reads, type SaveView } from "../helpers/store-reads.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";

const HOOK = "/hook";
const deployment = hubDeployment("bucketfaults");
/**
 * How long the bucket stays away at the least. The suite keeps it short (until each save has tried twice, ~10 s);
 * `HUB_BUCKET_AWAY_MS=60000` replays the minute-long outage on demand.
 */
const AWAY_AT_LEAST_MS = Number(process.env.HUB_BUCKET_AWAY_MS ?? 0);
const TASK_TIMEOUT_MS = 3000;

describe.skipIf(deployment.skip !== null)("hub mode: the bucket slow, then away, under a running process", () => {
  const { pair, env: keys } = testKeys();
  let proxy: FlakyProxy;
  let pushes: RecordingServer;
  let server: RunningServer;

  beforeAll(async () => {
    const settings = await deployment.settings();
    proxy = await startFlakyProxy(settings.S3_ENDPOINT!);
    pushes = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
    // TASK_TIMEOUT_MS under what one answer of the slow bucket takes: only the render must fit in it. A render takes
    // ~0.3 s here, alone; 1 s was too tight beside the suite's other workers (renders timed out, the saves went to
    // their timeout's retry instead of waiting for the bucket).
    server = await startServer({ env: { ...settings, ...keys, S3_ENDPOINT: proxy.url, TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS), NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${pushes.url}${HOOK}` } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    server?.cleanup();
    await proxy?.stop();
    await pushes?.stop();
    await deployment.end();
  });

  const store = () => reads(server, deployment);
  const failedJobs = async () => (await store().jobs()).filter((job) => job.state === "failed");
  const mostAttempts = async () => Math.max(0, ...(await store().jobs()).map((job) => job.attempts));
  const pushesOf = (player: string) => pushes.requestsTo(HOOK).filter((request) => (request.json as { playerId: string }).playerId === player).length;
  async function upload(players: string[]): Promise<void> {
    for (const player of players) expect((await uploadSave(server.url, encryptedSave(pair, { sites: [5] }), `bucket-${player}`, player)).status).toBe(200);
  }
  /** `eventually`, and when it times out, the jobs and the server's last lines: a failure in CI says why. */
  async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    try {
      await eventually(condition, timeoutMs, what);
    } catch (error) {
      const jobs = await store().jobs().catch((reason: unknown) => String(reason));
      const lines = server.output().split("\n").slice(-40).join("\n");
      throw new Error(`${(error as Error).message}\njobs: ${JSON.stringify(jobs)}\nthe server's last lines:\n${lines}`);
    }
  }
  async function archivedOncePushedOnce(players: string[], timeoutMs: number): Promise<void> {
    const settled = async () => {
      const [saves, jobs, archives] = await Promise.all([store().saves(), store().jobs(), store().archives()]);
      const settledSave = (save: SaveView) =>
        jobs.some((job) => job.save_id === save.save_id && job.state === "done") && archives.filter((archive) => archive.save_id === save.save_id).length === 1;
      return players.every((player) => saves.some((save) => save.player_id === player && settledSave(save)) && pushesOf(player) === 1);
    };
    await waitFor(settled, timeoutMs, "every save archived and pushed");
    expect(players.map((player) => pushesOf(player))).toEqual(players.map(() => 1));
  }

  test("a bucket slower than the render's timeout fails no save", async () => {
    proxy.delayMs = TASK_TIMEOUT_MS + 500; // each answer alone outlasts the render's timeout; the marker, then the files
    const began = performance.now();
    const players = ["7488393821770000001", "7488393821770000002"];
    await upload(players);
    await archivedOncePushedOnce(players, 60_000);
    proxy.delayMs = 0;
    console.log(`hub-bucket-faults: every answer held ${TASK_TIMEOUT_MS + 500} ms: ${players.length} saves archived and pushed once in ${Math.round(performance.now() - began)} ms`);
    expect(await failedJobs()).toEqual([]);
  }, 90_000);

  test("saves sent while the bucket is away wait, and are archived soon after it is back", async () => {
    await proxy.down();
    const wentDown = performance.now();
    const players = ["7488393821770000011", "7488393821770000012", "7488393821770000013"];
    await upload(players);
    // Each save has tried and is waiting for the bucket, its retries unspent.
    await waitFor(async () => (await store().jobs()).filter((job) => job.state === "pending_retry" && job.last_error?.includes("bucket")).length === players.length, 60_000, "saves waiting for the bucket");
    // Away a while longer: each save tries again (a few seconds later), and spends no retry on it.
    const triesLogged = () => server.output().match(/stage=generate .*bucket unavailable/g)?.length ?? 0;
    // Each try waits out the bucket's timeouts: on a busy 2-core machine beside the suite's other worker, 30 s was short
    // for this wait and the one above (once each).
    await waitFor(() => triesLogged() >= 2 * players.length, 60_000, "each save tried twice");
    expect(await mostAttempts()).toBeLessThanOrEqual(1);
    // The outage's length is the scenario, not a wait for a condition: on demand only (see AWAY_AT_LEAST_MS).
    const left = AWAY_AT_LEAST_MS - (performance.now() - wentDown);
    if (left > 0) await Bun.sleep(left);
    expect(await mostAttempts()).toBeLessThanOrEqual(1);
    const unavailableLines = triesLogged();
    await proxy.up();
    const back = performance.now();
    await archivedOncePushedOnce(players, 60_000);
    const recoveredMs = Math.round(performance.now() - back);
    expect(await failedJobs()).toEqual([]);
    console.log(`hub-bucket-faults: bucket away ${Math.round((back - wentDown) / 1000)} s: ${players.length} saves waited (${unavailableLines} log lines naming the bucket), all archived and pushed once ${recoveredMs} ms after it was back`);
    // Quiet, 7 s here; with the other core busy, 15.4 s once (three saves drawn at ~1 s of CPU each, the wait's
    // backoff before the first try): a bound that still fails a wait that outlasts the store's return by far.
    expect(recoveredMs).toBeLessThan(30_000);
  }, 180_000 + AWAY_AT_LEAST_MS);
});
