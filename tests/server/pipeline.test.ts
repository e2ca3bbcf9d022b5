import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { DEFAULT_REPORT_PATH } from "../../src/contract.ts";
import { summaryJson } from "../../src/maps/index.ts";
import { archiveFilesIn, archiveFolders, deployments, readArchiveFile, sqliteHalfOnly } from "../helpers/deployments.ts";
import { jobReaches, reads, saveIdOf } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { eventually, type RunningServer, serversForThisFile, startServer } from "../helpers/server.ts";
import { SMALL_MAPS } from "../helpers/small-maps.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

setDefaultTimeout(30_000);
const start = serversForThisFile({ JOB_BACKOFF_MS: "100,100" });

function archiveDirs(server: RunningServer, playerId = PLAYER_ID): string[] {
  const dir = join(server.dataDir, "archive", "by-id", playerId);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

for (const deployment of deployments("pipeline")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    let settings: Record<string, string> = {};
    // A hub's services share its database and bucket: each test stops its own, so none claims the next test's jobs.
    const running: RunningServer[] = [];
    const startHere = async (env: Record<string, string>, dataDir?: string) => {
      const server = await start({ ...settings, ...env }, dataDir);
      running.push(server);
      return server;
    };
    beforeAll(async () => {
      settings = await deployment.settings();
    }, 180_000);
    afterEach(async () => {
      for (const server of running.splice(0)) await server.stop();
    });
    afterAll(() => deployment.end());
    /**
     * A body that is not a save fails the same on every store (the runner's fail, and the start-up resume of jobs that
     * waited for a key, run on both stores in runner.*.contract and job-store.*.contract.test.ts); the hub keeps a save
     * through every stage, a stage's retries on a failing bucket and the crash.
     */
    const notOnHub = sqliteHalfOnly(deployment);

    const store = (server: RunningServer) => reads(server, deployment);
    const waitForJob = (server: RunningServer, saveId: number, state: string) => jobReaches(server, saveId, state, undefined, undefined, deployment);

    describe("a save through every stage", () => {
      test("drawn and archived in one stage (no drawn file through the store), then notify → done", async () => {
        const { pair, env } = testKeys();
        const server = await startHere(env);
        expect((await uploadSave(server.url, encryptedSave(pair), "full-1")).status).toBe(200);
        const saveId = await saveIdOf(server, "full-1", deployment);
        const job = await waitForJob(server, saveId, "done");
        expect(job.stage).toBe("done");

        const archive = (await store(server).archive(saveId))!;
        expect(archive.rel_path).toMatch(new RegExp(`^by-id/${PLAYER_ID}/\\d{8}_\\d{6}$`));
        expect(archive.token).toMatch(/^[0-9a-f]{32}$/);
        expect(await archiveFilesIn(deployment, server, archive.rel_path)).toEqual(
          ["overview.png", "rare_resources.txt", "save.bin", "save.json.gz", "site_5.png", "site_6.png", "site_7.png", "site_8.png", "summary.json"].sort(),
        );
        const saved = await readArchiveFile(settings, server, archive.rel_path, "save.bin");
        expect(Buffer.compare(saved, Buffer.from((await store(server).body(saveId))!))).toBe(0);
        expect(await store(server).hasTable("save_outputs")).toBe(false);
        await server.waitForOutput(
          new RegExp(`\\[JOB\\] stage finished .*save=${saveId} player=${PLAYER_ID} stage=generate attempt=1 ms=\\d+ outcome="next=notify" note="generated key=\\S+ files=9 ${archive.rel_path}"`),
        );
        const summary = JSON.parse((await readArchiveFile(settings, server, archive.rel_path, "summary.json")).toString("utf8"));
        expect(summary.playerId).toBe(PLAYER_ID);
        // The archived summary.json is the outputs model the generate stage stored with the save.
        const stored = (await store(server).outputs<Parameters<typeof summaryJson>[0]>(saveId))!;
        expect(summary).toEqual(JSON.parse(JSON.stringify(summaryJson(stored))));
      });

      notOnHub("a body that is not a save fails at once with a readable reason", async () => {
        const { env } = testKeys();
        const server = await startHere(env);
        const before = await archiveFolders(deployment, server);
        await uploadSave(server.url, randomBytes(4096), "junk-1");
        const job = await waitForJob(server, await saveIdOf(server, "junk-1", deployment), "failed");
        expect(job.attempts).toBe(1);
        expect(job.last_error).toContain("does not decrypt under any configured key");
        expect(await archiveFolders(deployment, server, before)).toEqual([]);
      });

      notOnHub("without keys jobs wait; a restart with keys finishes them", async () => {
        const { pair, env } = testKeys();
        const server = await startHere({});
        const before = await archiveFolders(deployment, server);
        await server.waitForOutput("no AES key configured");
        await uploadSave(server.url, encryptedSave(pair), "nokey-1");
        const saveId = await saveIdOf(server, "nokey-1", deployment);
        await waitForJob(server, saveId, "waiting_for_key");
        await server.stop();
        const again = await startHere(env, server.dataDir);
        await waitForJob(again, saveId, "done");
        expect(await archiveFolders(deployment, again, before)).toHaveLength(1);
      });

      test("a stage that keeps throwing is retried with backoff, then failed; the owner's retry finishes it", async () => {
        // Each attempt draws before it archives: small maps (this is about retries, not drawing).
        const { pair, env: keys } = testKeys();
        const env = { ...keys, ...SMALL_MAPS };
        // Every archive attempt throws: on disk a file stands where the archive folder should be; on a hub the
        // process has a wrong bucket secret.
        const wrongSecret = "not-the-bucket-secret";
        const server = await startHere(deployment.hub ? { ...env, S3_SECRET_ACCESS_KEY: wrongSecret } : env);
        if (!deployment.hub) writeFileSync(join(server.dataDir, "archive"), "in the way");
        await uploadSave(server.url, encryptedSave(pair), "throw-1");
        const saveId = await saveIdOf(server, "throw-1", deployment);
        const job = await waitForJob(server, saveId, "failed");
        expect(job.stage).toBe("generate");
        expect(job.attempts).toBe(3);
        expect(job.last_error).toMatch(deployment.hub ? /signature we calculated does not match|SignatureDoesNotMatch|AccessDenied/i : /ENOTDIR|EEXIST|not a directory/i);
        expect(job.last_error).not.toContain(wrongSecret);
        await server.waitForOutput(/\[JOB\] WARN stage finished .*stage=generate attempt=1 .*outcome=retry/);

        // The owner mends it: the folder cleared; on a hub the process restarted with the right secret.
        let mended = server;
        if (deployment.hub) {
          await server.stop();
          mended = await startHere(env, server.dataDir);
        } else rmSync(join(server.dataDir, "archive"));
        const failed = (await store(server).jobs()).filter((job) => job.state === "failed").length;
        // On a hub the CLI is given the hub's settings: it acts on the shared PostgreSQL.
        const cli = await ownerCliWith(settings, server, "retry", "--failed");
        expect(cli.out).toContain(`${failed} failed job${failed === 1 ? " " : "s"}`);
        expect(cli.code).toBe(0);
        // The running server does not watch the table for owner changes; its poller finds the job due.
        await waitForJob(mended, saveId, "done");
      });
    });

    describe("crash safety", () => {
      test("SIGKILL mid-pipeline, restart: every accepted save archived once and notified once", async () => {
        const { pair, env } = testKeys();
        const telegram = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true, result: [] } } });
        // On a hub the restarted process takes a killed one's jobs over only once their leases expire: keep them short.
        const lease: Record<string, string> = deployment.hub ? { JOB_LEASE_MS: "3000", NOTIFY_TIMEOUT_MS: "2000" } : {};
        const withPush = { ...env, ...lease, TELEGRAM_BOT_TOKEN: "123:secret-token", TELEGRAM_CHAT_ID: "42", TELEGRAM_API_BASE: telegram.url };
        const server = await startHere({ ...withPush, PIPELINE_CONCURRENCY: "1" });
        const foldersBefore = await archiveFolders(deployment, server);
        const savesBefore = await store(server).saveCount();
        const uploads = 6;
        for (let i = 0; i < uploads; i++) expect((await uploadSave(server.url, encryptedSave(pair), `kill-${i}`)).status).toBe(200);
        const saveIds = await Promise.all(Array.from({ length: uploads }, (_, i) => saveIdOf(server, `kill-${i}`, deployment)));
        const done = async (on: RunningServer) => (await store(on).jobs()).filter((job) => job.state === "done" && saveIds.includes(job.save_id!)).length;
        await eventually(async () => (await done(server)) >= 1, 20_000, "one job done");
        await server.stop("SIGKILL");
        expect(await done(server)).toBeLessThan(uploads);

        const again = await startHere(withPush, server.dataDir);
        await eventually(async () => (await done(again)) === uploads, 60_000, "all done");
        expect(await archiveFolders(deployment, again, foldersBefore)).toHaveLength(uploads);
        expect(await store(again).saveCount()).toBe(savesBefore + uploads);
        const pushes = telegram.requests.filter((request) => request.path.endsWith("/sendMediaGroup"));
        const captions = pushes.map((request) => JSON.parse(String(request.form?.get("media")))[0].caption as string);
        expect(new Set(captions).size).toBe(captions.length);
        expect((await store(again).allPushes()).filter((push) => push.state === "sent" && saveIds.includes(push.save_id))).toHaveLength(uploads);
        telegram.stop();
      }, 90_000);
    });
  });
}

/** SQLite itself: the instance lock, rows an older version left, the local archive's temp folder. */
describe("one process on SQLite only", () => {
  const jobOf = (server: RunningServer, saveId: number) => reads(server).job(saveId);

  test("a job an older version left at the archive stage draws again and finishes", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    await uploadSave(server.url, encryptedSave(pair), "legacy-1");
    const saveId = await saveIdOf(server, "legacy-1");
    await jobReaches(server, saveId, "done");
    await writes(server).jobDue([saveId], "archive");
    await server.waitForOutput(new RegExp(`save=${saveId} .*stage=archive attempt=1 .*outcome="next=generate" note="drawn files are no longer kept`));
    await server.waitForOutput(new RegExp(`save=${saveId} .*stage=notify attempt=1 .*outcome=done[\\s\\S]*save=${saveId} .*stage=notify attempt=1 .*outcome=done`));
    expect(await jobOf(server, saveId)).toMatchObject({ stage: "done", state: "done" });
    expect(archiveDirs(server)).toHaveLength(1);
  });

  test("a second service on the same DATA_DIR refuses to start", async () => {
    const server = await start({});
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(/another instance already serves DATA_DIR/);
  });

  test("graceful shutdown finishes or leaves queued, and no archive is half-written", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, SHUTDOWN_GRACE_MS: "10000" });
    for (let i = 0; i < 4; i++) await uploadSave(server.url, encryptedSave(pair), `term-${i}`);
    await eventually(async () => (await reads(server).jobs()).some((job) => job.stage !== "generate" || job.state === "running"), 20_000, "work started");
    expect(await server.stop("SIGTERM")).toBe(0);
    await server.waitForOutput("[SERVER] stopped");
    const temp = join(server.dataDir, "archive", ".tmp");
    expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
    for (const dir of archiveDirs(server)) {
      const files = readdirSync(join(server.dataDir, "archive", "by-id", PLAYER_ID, dir));
      expect(files).toContain("overview.png");
      expect(files).toContain("save.bin");
    }
    const states = (await reads(server).jobs()).map((row) => row.state);
    expect(states.every((state) => ["done", "pending", "pending_retry"].includes(state))).toBe(true);
  }, 60_000);

  describe("uploads and reports come first", () => {
    /** A report whose body stalls after its first bytes for `holdMs`: in flight all that time. */
    function reportInFlight(url: string, holdMs: number): { ended: () => boolean; done: Promise<void> } {
      let ended = false;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('{"log":'));
          await Bun.sleep(holdMs);
          controller.enqueue(new TextEncoder().encode('{"entries":[]}}'));
          controller.close();
        },
      });
      const init = { method: "POST", body, duplex: "half", headers: { "content-type": "application/json" } };
      const done = fetch(`${url}${DEFAULT_REPORT_PATH}`, init as RequestInit)
        .then((answer) => answer.text())
        .then(() => {
          ended = true;
        });
      return { ended: () => ended, done };
    }

    test("a stage waits while a report is in flight, one second at most", async () => {
      const { pair, env } = testKeys();
      const server = await start(env);
      const slow = reportInFlight(server.url, 2500);
      await Bun.sleep(200);
      expect((await uploadSave(server.url, encryptedSave(pair), "behind-report")).status).toBe(200);
      const saveId = await saveIdOf(server, "behind-report");
      await Bun.sleep(400);
      expect(await jobOf(server, saveId)).toMatchObject({ stage: "generate", state: "pending", attempts: 0 });
      await eventually(async () => ((await jobOf(server, saveId))?.attempts ?? 0) > 0, 10_000, "generate started");
      expect(slow.ended()).toBe(false);
      await slow.done;
      await jobReaches(server, saveId, "done");
    }, 30_000);
  });
});
