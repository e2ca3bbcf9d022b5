/**
 * The retention rule removes exactly what expired (the stored JSON of a save with its database copies), the
 * database file shrinks afterwards, and a save whose encrypted copy was cleared is reprocessed from the
 * archive's save.bin.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { openDatabase, type Db } from "../../src/db/sqlite/open.ts";
import { applyRetention } from "../../src/db/retention/sqlite.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { writeStore } from "../helpers/db.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { eventually, startServer, type RunningServer } from "../helpers/server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";

const DAY = 24 * 60 * 60 * 1000;
const now = Date.now();
const OLD = now - 40 * DAY;
const RECENT = now - DAY;
const CUTOFF = now - 30 * DAY;

const cleanups: (() => void | Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mysekai-retention-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function fixture() {
  const dir = tempDir();
  const db = openDatabase(join(dir, "ingest.sqlite"));
  cleanups.push(() => db.$client.close());
  const archiveRoot = join(dir, "archive");
  const sql = db.$client;

  const report = (receivedAt: number, processedAt: number | null, jobState: string | null, candidates: number) => {
    const { id } = sql
      .query("INSERT INTO reports (received_at, shape, entry_count, candidate_count, empty_bodies, meta, processed_at) VALUES (?, 'har', 1, ?, 0, '{}', ?) RETURNING id")
      .get(receivedAt, candidates, processedAt) as { id: number };
    for (let seq = 0; seq < candidates; seq++) {
      sql.query("INSERT INTO report_candidates (report_id, seq, entry_index, part, body) VALUES (?, ?, 0, 'response', ?)").run(id, seq, randomBytes(50_000));
    }
    if (jobState) {
      sql.query("INSERT INTO jobs (report_id, stage, state, run_at, created_at, updated_at) VALUES (?, 'evaluate', ?, ?, ?, ?)").run(id, jobState, receivedAt, receivedAt, processedAt ?? receivedAt);
    }
    return id;
  };

  type Archive = "intact" | "missing" | "damaged" | null;
  const save = (receivedAt: number, jobState: string, archive: Archive, deliveryStates: string[] = []) => {
    const encrypted = randomBytes(100_000);
    const sha256 = sha256Hex(encrypted);
    const { id } = sql
      .query("INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at, outputs) VALUES (?, '1234', 'upload', ?, ?, ?, '{}') RETURNING id")
      .get(sha256, encrypted, encrypted.byteLength, receivedAt) as { id: number };
    const stage = jobState === "done" ? "done" : "notify";
    sql.query("INSERT INTO jobs (save_id, stage, state, run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").run(id, stage, jobState, receivedAt, receivedAt, receivedAt);
    if (archive) {
      const relPath = `by-id/1234/save_${id}`;
      sql.query("INSERT INTO archives (save_id, player_id, rel_path, token, files, created_at) VALUES (?, '1234', ?, ?, '[\"save.bin\",\"save.json.gz\",\"site_5.png\"]', ?)").run(id, relPath, `token${id}`, receivedAt);
      mkdirSync(join(archiveRoot, relPath), { recursive: true });
      if (archive !== "missing") writeFileSync(join(archiveRoot, relPath, "save.bin"), archive === "intact" ? encrypted : randomBytes(100_000));
      writeFileSync(join(archiveRoot, relPath, "save.json.gz"), randomBytes(1_000));
    }
    deliveryStates.forEach((state, n) => {
      sql.query("INSERT INTO deliveries (save_id, channel, target, state, next_attempt_at, created_at) VALUES (?, 'webhook', ?, ?, ?, ?)").run(id, `t${n}`, state, receivedAt, receivedAt);
    });
    return id;
  };
  return { db, dir, archiveRoot, report, save };
}

const count = (db: Db, sql: string, ...params: number[]) => (db.$client.query(sql).get(...params) as { n: number }).n;
const hasBody = (db: Db, saveId: number) => count(db, "SELECT count(*) AS n FROM saves WHERE id = ? AND encrypted IS NOT NULL", saveId) === 1;
const hasOutputs = (db: Db, saveId: number) => count(db, "SELECT count(*) AS n FROM saves WHERE id = ? AND outputs IS NOT NULL", saveId) === 1;
const hasJob = (db: Db, saveId: number) => count(db, "SELECT count(*) AS n FROM jobs WHERE save_id = ?", saveId) === 1;
const deliveryCount = (db: Db, saveId: number) => count(db, "SELECT count(*) AS n FROM deliveries WHERE save_id = ?", saveId);
/** The data API's save.json.gz: listed in the archive's files, and on disk. */
const storedJson = (db: Db, archiveRoot: string, saveId: number) => {
  const { files, relPath } = db.$client.query("SELECT files, rel_path AS relPath FROM archives WHERE save_id = ?").get(saveId) as { files: string; relPath: string };
  return { files: JSON.parse(files) as string[], onDisk: existsSync(join(archiveRoot, relPath, "save.json.gz")) };
};
const pageCount = (db: Db) => (db.$client.query("PRAGMA page_count").get() as { page_count: number }).page_count;

describe("the retention rule, in process", () => {
  test("exactly the expired rows go, and the file shrinks", async () => {
    const { db, report, save, archiveRoot } = fixture();
    const reports = {
      doneOld: report(OLD, OLD, "done", 3),
      failedOld: report(OLD, OLD, "failed", 3),
      doneRecent: report(RECENT, RECENT, "done", 2),
      waitingForKeyOld: report(OLD, null, "waiting_for_key", 2),
      retriedOld: report(OLD, OLD, "pending", 2),
    };
    const saves = {
      archivedOld: save(OLD, "done", "intact", ["sent", "skipped", "failed"]),
      archiveMissing: save(OLD, "done", "missing", ["sent"]),
      archiveDamaged: save(OLD, "done", "damaged"),
      failedOld: save(OLD, "failed", null, ["failed"]),
      archivedRecent: save(RECENT, "done", "intact", ["sent"]),
      notifyingOld: save(OLD, "pending_retry", "intact", ["sent", "pending"]),
    };
    const pagesBefore = pageCount(db);

    const { counts, more } = await applyRetention(db, diskArchiveStore(archiveRoot), CUTOFF);
    expect(more).toBe(false);

    const remainingReports = (db.$client.query("SELECT id FROM reports ORDER BY id").all() as { id: number }[]).map((row) => row.id);
    expect(remainingReports).toEqual([reports.doneRecent, reports.waitingForKeyOld, reports.retriedOld]);
    expect(count(db, "SELECT count(*) AS n FROM report_candidates")).toBe(6);
    expect(count(db, "SELECT count(*) AS n FROM jobs WHERE report_id IS NOT NULL")).toBe(3);

    expect(hasBody(db, saves.archivedOld)).toBe(false);
    expect(hasOutputs(db, saves.archivedOld)).toBe(false);
    expect(hasJob(db, saves.archivedOld)).toBe(false);
    expect(deliveryCount(db, saves.archivedOld)).toBe(0);
    // Its stored JSON goes with the database copies: off the disk and out of the archive's files.
    expect(storedJson(db, archiveRoot, saves.archivedOld)).toEqual({ files: ["save.bin", "site_5.png"], onDisk: false });
    const kept = { files: ["save.bin", "save.json.gz", "site_5.png"], onDisk: true };
    for (const other of [saves.archiveDamaged, saves.archivedRecent, saves.notifyingOld]) expect(storedJson(db, archiveRoot, other)).toEqual(kept);
    // Without an intact save.bin the database copy is the only one: it stays.
    expect(hasBody(db, saves.archiveMissing)).toBe(true);
    expect(hasBody(db, saves.archiveDamaged)).toBe(true);
    expect(hasJob(db, saves.archiveMissing)).toBe(false); // done jobs go either way: reprocess re-creates one
    expect(deliveryCount(db, saves.archiveMissing)).toBe(0);
    // A failed save keeps its bytes and its job (cli retry --failed needs both).
    expect(hasBody(db, saves.failedOld)).toBe(true);
    expect(hasJob(db, saves.failedOld)).toBe(true);
    expect(deliveryCount(db, saves.failedOld)).toBe(1);
    expect(hasBody(db, saves.archivedRecent) && hasJob(db, saves.archivedRecent)).toBe(true);
    expect(hasOutputs(db, saves.archivedRecent) && hasOutputs(db, saves.archiveMissing)).toBe(true);
    expect(deliveryCount(db, saves.archivedRecent)).toBe(1);
    // A save still being pushed keeps everything.
    expect(hasBody(db, saves.notifyingOld) && hasJob(db, saves.notifyingOld)).toBe(true);
    expect(deliveryCount(db, saves.notifyingOld)).toBe(2);
    // Save rows stay: their sha256 dedupes a resend.
    expect(count(db, "SELECT count(*) AS n FROM saves")).toBe(6);

    expect(counts).toMatchObject({ candidates: 6, reports: 2, jobs: 3, deliveries: 4, clearedSaves: 1 });
    expect(counts.vacuumedPages).toBeGreaterThan(0);
    expect((db.$client.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count).toBe(0);
    // 6 candidates of 50 KB and one 100 KB save body left: about 400 KB of 4 KiB pages.
    expect(pagesBefore - pageCount(db)).toBeGreaterThan(90);

    // Nothing left to do: a second run removes nothing.
    const again = await applyRetention(db, diskArchiveStore(archiveRoot), CUTOFF);
    expect(again.counts).toEqual({ candidates: 0, reports: 0, jobs: 0, junkSaves: 0, deliveries: 0, clearedSaves: 0, vacuumedPages: 0 });
  });

  test("a failed save whose bytes cannot be a save under the keys expires whole; every other save stays", async () => {
    const { db, archiveRoot } = fixture();
    const junk = (updatedAt: number, state: string, implausible: number) => {
      const encrypted = randomBytes(64_000);
      const { id } = db.$client
        .query("INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at) VALUES (?, 'unknown', 'upload', ?, ?, ?) RETURNING id")
        .get(sha256Hex(encrypted), encrypted, encrypted.length, updatedAt) as { id: number };
      db.$client
        .query("INSERT INTO jobs (save_id, stage, state, implausible, run_at, created_at, updated_at) VALUES (?, 'generate', ?, ?, ?, ?, ?)")
        .run(id, state, implausible, updatedAt, updatedAt, updatedAt);
      return id;
    };
    const expired = junk(OLD, "failed", 1);
    const recent = junk(RECENT, "failed", 1);
    const queued = junk(OLD, "pending", 1);
    const failedSave = junk(OLD, "failed", 0);
    const { counts } = await applyRetention(db, diskArchiveStore(archiveRoot), CUTOFF);
    expect(counts.junkSaves).toBe(1);
    const left = (db.$client.query("SELECT id FROM saves ORDER BY id").all() as { id: number }[]).map((row) => row.id);
    expect(left).toEqual([recent, queued, failedSave]);
    expect(count(db, `SELECT count(*) AS n FROM jobs WHERE save_id = ${expired}`)).toBe(0);
  });

  test("work per run is bounded: a capped run reports more work, the next runs finish it", async () => {
    const { db, report, archiveRoot } = fixture();
    for (let n = 0; n < 3; n++) report(OLD, OLD, "done", 40);
    const first = await applyRetention(db, diskArchiveStore(archiveRoot), CUTOFF, 1);
    expect(first.more).toBe(true);
    expect(first.counts.candidates).toBe(32);
    let rounds = 1;
    while ((await applyRetention(db, diskArchiveStore(archiveRoot), CUTOFF, 1)).more) rounds++;
    expect(rounds).toBeGreaterThan(2);
    expect(count(db, "SELECT count(*) AS n FROM reports")).toBe(0);
    expect(count(db, "SELECT count(*) AS n FROM report_candidates")).toBe(0);
  });
});

describe("incremental vacuum", () => {
  test("a fresh file is created with it; an older file without it is rebuilt once", () => {
    const dir = tempDir();
    const autoVacuum = (db: Db) => (db.$client.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum;
    const fresh = openDatabase(join(dir, "fresh.sqlite"));
    expect(autoVacuum(fresh)).toBe(2);
    fresh.$client.close();

    const path = join(dir, "old.sqlite");
    const old = new Database(path);
    old.exec("CREATE TABLE kept (body BLOB)");
    old.query("INSERT INTO kept VALUES (?)").run(randomBytes(10_000));
    old.close();
    const reopened = openDatabase(path);
    expect(autoVacuum(reopened)).toBe(2);
    expect(count(reopened, "SELECT count(*) AS n FROM kept")).toBe(1);
    reopened.$client.close();
  });
});

describe("the retention rule on the real server", () => {
  test("after the sweep cleared a save's encrypted copy and stored JSON, cli reprocess rebuilds it from save.bin (without the JSON)", async () => {
    const { pair, env } = testKeys();
    let server: RunningServer = await startServer({ env });
    cleanups.push(async () => {
      await server.stop("SIGKILL");
      server.cleanup();
    });
    expect((await uploadSave(server.url, encryptedSave(pair), "retained-1")).status).toBe(200);
    const saveId = (await reads(server).saveOfUpload("retained-1"))!;
    await jobReaches(server, saveId, "done", 20_000, "save archived");
    const archive = (await reads(server).archive(saveId))!;
    const jsonFile = join(server.dataDir, "archive", archive.rel_path, "save.json.gz");
    const listsJson = async () => (await reads(server).archive(saveId))!.files.includes("save.json.gz");
    expect([await listsJson(), existsSync(jsonFile)]).toEqual([true, true]);
    await server.stop();

    // Archived and done 40 days ago; the start-up sweep then applies the rule.
    writeStore(server.dbPath, "UPDATE archives SET created_at = created_at - ?", 40 * DAY);
    writeStore(server.dbPath, "UPDATE jobs SET updated_at = updated_at - ?", 40 * DAY);
    server = await startServer({ env, dataDir: server.dataDir });
    await server.waitForOutput(/\[GC\] retention applied .*clearedSaves=1/);
    expect((await reads(server).saveRow(saveId))?.has_body).toBe(false);
    expect(await reads(server).job(saveId)).toBeUndefined();
    expect([await listsJson(), existsSync(jsonFile)]).toEqual([false, false]);

    const runCli = (...args: string[]) =>
      Bun.spawnSync([process.execPath, "src/cli.ts", ...args], {
        cwd: resolve(import.meta.dir, "..", ".."),
        env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, CONFIG_DIR: join(server.dataDir, "config"), ...env },
      });
    expect(runCli("gc").stdout.toString()).toContain("retention (30 days): removed 0 report(s), 0 candidate(s), 0 done job(s)");
    const cli = runCli("reprocess", String(saveId));
    expect(cli.stdout.toString()).toContain(`save ${saveId} queued`);
    expect(cli.exitCode).toBe(0);
    const job = await eventually(async () => {
      const job = await reads(server).job(saveId);
      return job?.state === "done" && job;
    }, 20_000, "reprocessed");
    expect(job.last_error).toBeNull();
    await server.waitForOutput(new RegExp(`stage finished job=\\d+ save=${saveId} .*stage=generate .*outcome="next=notify"`));
    expect((await reads(server).archive(saveId))!.rel_path).toBe(archive.rel_path);
    // Past the rule, the JSON is not stored again (the data API builds it on read): no file that no sweep removes.
    expect([await listsJson(), existsSync(jsonFile)]).toEqual([false, false]);
  });
});
