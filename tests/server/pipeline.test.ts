import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { DEFAULT_REPORT_PATH } from "../../src/contract.ts";
import { summaryJson } from "../../src/maps/index.ts";
import { jobOfSave, one, query } from "../helpers/db.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { eventually, type RunningServer, serversForThisFile, startServer } from "../helpers/server.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";


const start = serversForThisFile({ JOB_BACKOFF_MS: "100,100" });

function saveIdOf(server: RunningServer, uploadId: string): number {
  return one<{ save_id: number }>(server, "SELECT save_id FROM upload_tasks WHERE upload_id = ? ORDER BY id DESC", uploadId)!.save_id;
}

const waitForJob = (server: RunningServer, saveId: number, state: string, timeoutMs = 20_000) =>
  eventually(() => jobOfSave(server, saveId)?.state === state && jobOfSave(server, saveId), timeoutMs, `job of save ${saveId} ${state}`);

function archiveDirs(server: RunningServer, playerId = PLAYER_ID): string[] {
  const dir = join(server.dataDir, "archive", "by-id", playerId);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe("a save through every stage", () => {
  test("drawn and archived in one stage (no drawn file through SQLite), then notify → done", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    expect((await uploadSave(server.url, encryptedSave(pair), "full-1")).status).toBe(200);
    const saveId = saveIdOf(server, "full-1");
    const job = await waitForJob(server, saveId, "done");
    expect(job.stage).toBe("done");

    const archive = one<{ rel_path: string; files: string; token: string }>(server, "SELECT * FROM archives WHERE save_id = ?", saveId)!;
    expect(archive.rel_path).toMatch(new RegExp(`^by-id/${PLAYER_ID}/\\d{8}_\\d{6}$`));
    expect(archive.token).toMatch(/^[0-9a-f]{32}$/);
    const files = readdirSync(join(server.dataDir, "archive", archive.rel_path)).filter((name) => !name.startsWith("."));
    expect(files.sort()).toEqual(
      ["overview.png", "rare_resources.txt", "save.bin", "save.json.gz", "site_5.png", "site_6.png", "site_7.png", "site_8.png", "summary.json"].sort(),
    );
    const saved = readFileSync(join(server.dataDir, "archive", archive.rel_path, "save.bin"));
    const row = one<{ encrypted: Uint8Array }>(server, "SELECT encrypted FROM saves WHERE id = ?", saveId)!;
    expect(Buffer.compare(saved, Buffer.from(row.encrypted))).toBe(0);
    expect(one<{ n: number }>(server, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'save_outputs'")!.n).toBe(0);
    await server.waitForOutput(
      new RegExp(`\\[JOB\\] stage finished .*save=${saveId} player=${PLAYER_ID} stage=generate attempt=1 ms=\\d+ outcome="next=notify" note="generated key=\\S+ files=9 ${archive.rel_path}"`),
    );
    const summary = JSON.parse(readFileSync(join(server.dataDir, "archive", archive.rel_path, "summary.json"), "utf8"));
    expect(summary.playerId).toBe(PLAYER_ID);
    // The archived summary.json is the outputs model the generate stage stored with the save.
    const stored = one<{ outputs: string }>(server, "SELECT outputs FROM saves WHERE id = ?", saveId)!;
    expect(summary).toEqual(JSON.parse(JSON.stringify(summaryJson(JSON.parse(stored.outputs)))));
  });

  test("a job an older version left at the archive stage draws again and finishes", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    await uploadSave(server.url, encryptedSave(pair), "legacy-1");
    const saveId = saveIdOf(server, "legacy-1");
    await waitForJob(server, saveId, "done");
    const db = new Database(join(server.dataDir, "ingest.sqlite"));
    try {
      db.query("UPDATE jobs SET stage = 'archive', state = 'pending', run_at = 0 WHERE save_id = ?").run(saveId);
    } finally {
      db.close();
    }
    await server.waitForOutput(new RegExp(`save=${saveId} .*stage=archive attempt=1 .*outcome="next=generate" note="drawn files are no longer kept`));
    await server.waitForOutput(new RegExp(`save=${saveId} .*stage=notify attempt=1 .*outcome=done[\\s\\S]*save=${saveId} .*stage=notify attempt=1 .*outcome=done`));
    expect(jobOfSave(server, saveId)).toMatchObject({ stage: "done", state: "done" });
    expect(archiveDirs(server)).toHaveLength(1);
  });

  test("a body that is not a save fails at once with a readable reason", async () => {
    const { env } = testKeys();
    const server = await start(env);
    await uploadSave(server.url, randomBytes(4096), "junk-1");
    const job = await waitForJob(server, saveIdOf(server, "junk-1"), "failed");
    expect(job.attempts).toBe(1);
    expect(job.last_error).toContain("does not decrypt under any configured key");
    expect(archiveDirs(server)).toEqual([]);
  });

  test("without keys jobs wait; a restart with keys finishes them", async () => {
    const { pair, env } = testKeys();
    const server = await start({});
    await server.waitForOutput("no AES key configured");
    await uploadSave(server.url, encryptedSave(pair), "nokey-1");
    const saveId = saveIdOf(server, "nokey-1");
    await waitForJob(server, saveId, "waiting_for_key");
    await server.stop();
    const again = await start(env, server.dataDir);
    await waitForJob(again, saveId, "done");
    expect(archiveDirs(again)).toHaveLength(1);
  });

  test("a stage that keeps throwing is retried with backoff, then failed; the owner's retry finishes it", async () => {
    const { pair, env } = testKeys();
    const server = await start(env);
    // A file where the archive folder should be: every archive attempt throws.
    writeFileSync(join(server.dataDir, "archive"), "in the way");
    await uploadSave(server.url, encryptedSave(pair), "throw-1");
    const saveId = saveIdOf(server, "throw-1");
    const job = await waitForJob(server, saveId, "failed");
    expect(job.stage).toBe("generate");
    expect(job.attempts).toBe(3);
    expect(job.last_error).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    await server.waitForOutput(/\[JOB\] WARN stage finished .*stage=generate attempt=1 .*outcome=retry/);

    rmSync(join(server.dataDir, "archive"));
    const cli = Bun.spawnSync([process.execPath, "src/cli.ts", "retry", "--failed"], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir },
    });
    expect(cli.stdout.toString()).toContain("1 failed job");
    expect(cli.exitCode).toBe(0);
    // The running server does not watch the table for owner changes; its poller finds the job due.
    await waitForJob(server, saveId, "done");
  });
});

describe("crash safety", () => {
  test("a second service on the same DATA_DIR refuses to start", async () => {
    const server = await start({});
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(/another instance already serves DATA_DIR/);
  });

  test("SIGKILL mid-pipeline, restart: every accepted save archived once and notified once", async () => {
    const { pair, env } = testKeys();
    const telegram = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true, result: [] } } });
    const withPush = { ...env, TELEGRAM_BOT_TOKEN: "123:secret-token", TELEGRAM_CHAT_ID: "42", TELEGRAM_API_BASE: telegram.url };
    const server = await start({ ...withPush, PIPELINE_CONCURRENCY: "1" });
    const count = 6;
    for (let i = 0; i < count; i++) expect((await uploadSave(server.url, encryptedSave(pair), `kill-${i}`)).status).toBe(200);
    await eventually(() => one<{ n: number }>(server, "SELECT count(*) AS n FROM jobs WHERE state = 'done'")!.n >= 1, 20_000, "one job done");
    await server.stop("SIGKILL");
    const done = one<{ n: number }>(server, "SELECT count(*) AS n FROM jobs WHERE state = 'done'")!.n;
    expect(done).toBeLessThan(count);

    const again = await start(withPush, server.dataDir);
    await eventually(() => one<{ n: number }>(again, "SELECT count(*) AS n FROM jobs WHERE state = 'done'")!.n === count, 60_000, "all done");
    expect(archiveDirs(again)).toHaveLength(count);
    const saveIds = query<{ id: number }>(again, "SELECT id FROM saves").map((row) => row.id);
    expect(saveIds).toHaveLength(count);
    const pushes = telegram.requests.filter((request) => request.path.endsWith("/sendMediaGroup"));
    const captions = pushes.map((request) => JSON.parse(String(request.form?.get("media")))[0].caption as string);
    expect(new Set(captions).size).toBe(captions.length);
    expect(query<{ n: number }>(again, "SELECT count(*) AS n FROM deliveries WHERE state = 'sent'")[0]!.n).toBe(count);
    telegram.stop();
  }, 90_000);

  test("graceful shutdown finishes or leaves queued, and no archive is half-written", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, SHUTDOWN_GRACE_MS: "10000" });
    for (let i = 0; i < 4; i++) await uploadSave(server.url, encryptedSave(pair), `term-${i}`);
    await eventually(() => query(server, "SELECT 1 FROM jobs WHERE stage != 'generate' OR state = 'running'").length > 0, 20_000, "work started");
    expect(await server.stop("SIGTERM")).toBe(0);
    await server.waitForOutput("[SERVER] stopped");
    const temp = join(server.dataDir, "archive", ".tmp");
    expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
    for (const dir of archiveDirs(server)) {
      const files = readdirSync(join(server.dataDir, "archive", "by-id", PLAYER_ID, dir));
      expect(files).toContain("overview.png");
      expect(files).toContain("save.bin");
    }
    const states = query<{ state: string }>(server, "SELECT state FROM jobs").map((row) => row.state);
    expect(states.every((state) => ["done", "pending", "pending_retry"].includes(state))).toBe(true);
  }, 60_000);
});

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
    const saveId = saveIdOf(server, "behind-report");
    await Bun.sleep(400);
    expect(jobOfSave(server, saveId)).toMatchObject({ stage: "generate", state: "pending", attempts: 0 });
    await eventually(() => (jobOfSave(server, saveId)?.attempts ?? 0) > 0, 10_000, "generate started");
    expect(slow.ended()).toBe(false);
    await slow.done;
    await waitForJob(server, saveId, "done");
  }, 30_000);
});
