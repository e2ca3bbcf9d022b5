/** storeSaveOnce: an `unknown` save adopts a real player id, and its job is drawn again, at rest or running. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase, type Db } from "../../src/db/open.ts";
import { storeSaveOnce, type StoredSave } from "../../src/db/saves.ts";
import { jobs, saves } from "../../src/db/schema.ts";
import { claimJob, rerunIfFlagged } from "../../src/db/jobs/index.ts";
import { LeaseLostError } from "../../src/store/model/jobs.ts";

const PLAYER = "7488393821744390161";
const BYTES = new Uint8Array([7, 7, 7, 7]);
let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mysekai-adopt-unit-"));
  db = openDatabase(join(dir, "ingest.sqlite"));
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const arrive = (playerId: string, bytes = BYTES): StoredSave =>
  db.transaction((tx) => storeSaveOnce(tx, { encrypted: bytes, playerId, source: "report", receivedAt: 1000 }));
const playerOf = (saveId: number) => db.select().from(saves).where(eq(saves.id, saveId)).get()!.playerId;
const jobOf = (saveId: number) => db.select().from(jobs).where(eq(jobs.saveId, saveId)).get()!;

describe("adoption", () => {
  test("a queued unknown save takes the id; its job stays at generate, due now", () => {
    const first = arrive("unknown");
    expect(first).toEqual({ saveId: first.saveId, created: true, adopted: false });
    expect(arrive(PLAYER)).toEqual({ saveId: first.saveId, created: false, adopted: true });
    expect(playerOf(first.saveId)).toBe(PLAYER);
    expect(jobOf(first.saveId)).toMatchObject({ stage: "generate", state: "pending", attempts: 0, rerun: false });
    expect(db.select().from(saves).all()).toHaveLength(1);
  });

  test("a done save goes back to generate with the push on", () => {
    const { saveId } = arrive("unknown");
    db.update(jobs).set({ stage: "done", state: "done", attempts: 3, notify: false, lastError: "x" }).where(eq(jobs.saveId, saveId)).run();
    arrive(PLAYER);
    expect(jobOf(saveId)).toMatchObject({ stage: "generate", state: "pending", attempts: 0, notify: true, lastError: null, rerun: false });
  });

  test("a save whose done job the retention rule deleted gets a job back, at generate with the push on", () => {
    const first = arrive("unknown");
    db.delete(jobs).where(eq(jobs.saveId, first.saveId)).run();
    expect(arrive(PLAYER).adopted).toBe(true);
    expect(jobOf(first.saveId)).toMatchObject({ stage: "generate", state: "pending", notify: true });
  });

  test("a known id is never replaced, and unknown never replaces anything", () => {
    const { saveId } = arrive(PLAYER);
    db.update(jobs).set({ stage: "done", state: "done" }).where(eq(jobs.saveId, saveId)).run();
    expect(arrive("1234567890123456789").adopted).toBe(false);
    expect(arrive("unknown").adopted).toBe(false);
    expect(playerOf(saveId)).toBe(PLAYER);
    expect(jobOf(saveId)).toMatchObject({ stage: "done", state: "done" });

    const other = arrive("unknown", new Uint8Array([1])).saveId;
    expect(arrive("unknown", new Uint8Array([1])).adopted).toBe(false);
    expect(playerOf(other)).toBe("unknown");
  });
});

describe("a running job", () => {
  test("is flagged, and its runner sends it back to generate when it records the stage", () => {
    const { saveId } = arrive("unknown");
    const job = claimJob(db, 2000, 60_000)!;
    arrive(PLAYER);
    expect(jobOf(saveId)).toMatchObject({ stage: "generate", state: "running", leaseId: job.leaseId, rerun: true });

    expect(db.transaction((tx) => rerunIfFlagged(tx, job, 3000))).toBe(true);
    expect(jobOf(saveId)).toMatchObject({ stage: "generate", state: "pending", runAt: 3000, attempts: 0, notify: true, rerun: false, leaseId: null });
    // Recorded once: the next run of the stage advances as usual.
    const again = claimJob(db, 4000, 60_000)!;
    expect(db.transaction((tx) => rerunIfFlagged(tx, again, 5000))).toBe(false);
  });

  test("a runner that lost the lease cannot clear the flag; the holder that took over does", () => {
    const { saveId } = arrive("unknown");
    const old = claimJob(db, 2000, 1000)!;
    arrive(PLAYER);
    const current = claimJob(db, 5000, 60_000)!;
    expect(() => db.transaction((tx) => rerunIfFlagged(tx, old, 6000))).toThrow(LeaseLostError);
    expect(jobOf(saveId).rerun).toBe(true);
    expect(db.transaction((tx) => rerunIfFlagged(tx, current, 6000))).toBe(true);
  });
});
