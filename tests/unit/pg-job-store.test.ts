/**
 * What only the PostgreSQL job store has to do, several processes on one database. A holder records its stage
 * while another process sends the save back to draw again: the holder's UPDATE and the requeue's SELECT … FOR
 * UPDATE take the row lock, so the holder sees the flag or the requeue finds the job at rest, never a done job
 * with a forgotten flag (a third connection holds the row while both line up behind it). New work wakes the
 * other processes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { eventually } from "../../scripts/lib/eventually.ts";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { saves } from "../../src/db/pg/schema.ts";
import { pgUploadStore } from "../../src/db/uploads/pg-store.ts";
import type { UploadLimits } from "../../src/store/ports/ingest.ts";
import { randomBytes } from "node:crypto";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { advanceChange, type ClaimedJob } from "../../src/store/model/jobs.ts";
import { NO_ORIGIN } from "../../src/store/model/saves.ts";

const T0 = 1_700_000_000_000;
const LEASE = 60_000;
const UPLOAD_LIMITS: UploadLimits = { maxUploadBytes: 1 << 20, ttlMs: 60_000, maxOpen: 4, maxOpenBytes: 1 << 20, peerShare: 0.5, mayBeSave: () => true };

describe.skipIf(POSTGRES_MISSING !== null)("redraw while the stage records, on PostgreSQL", () => {
  const opened: { end: () => Promise<void> }[] = [];
  afterAll(() => Promise.all(opened.map((client) => client.end())));

  async function setUp() {
    const url = await databaseForThisFile("migrated");
    const [holderDb, requeuerDb] = [await openPostgres(url), await openPostgres(url)];
    // Two connections: one holds the row in its transaction, the other watches who waits.
    const blocker = postgres(url, { max: 2 });
    opened.push(holderDb.$client, requeuerDb.$client, blocker);
    const holder = pgJobStore(holderDb);
    const [save] = await holderDb.insert(saves).values({ sha256: crypto.randomUUID(), playerId: "1234567890123456789", source: "upload", size: 3, receivedAt: T0 }).returning({ id: saves.id });
    await holder.enqueueSave(save!.id, T0, false);
    const job = (await holder.claim(T0, LEASE, false))!;
    const waiting = async (count: number) =>
      eventually(async () => (await blocker`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n >= count, 10_000, `${count} sessions waiting on the row`);
    return { holder, requeuer: pgJobStore(requeuerDb), holderDb, blocker, job, saveId: save!.id, waiting };
  }

  /** Holds the job's row locked until `release` is called. */
  async function lockRow(blocker: postgres.Sql, job: ClaimedJob) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const done = blocker.begin(async (tx) => {
      await tx`SELECT id FROM jobs WHERE id = ${job.id} FOR UPDATE`;
      locked();
      await released;
    });
    await isLocked;
    return { release: async () => (release(), await done) };
  }

  const jobRow = async (db: PgDb, saveId: number) => (await db.query.jobs.findFirst({ where: (jobs, { eq }) => eq(jobs.saveId, saveId) }))!;

  test("the holder records first: the requeue then finds the job at rest and sends it to generate", async () => {
    const { holder, requeuer, holderDb, blocker, job, saveId, waiting } = await setUp();
    const row = await lockRow(blocker, job);
    const recorded = holder.record(job, advanceChange("done", T0 + 1), T0 + 1);
    await waiting(1);
    const requeued = requeuer.requeueForRedraw(saveId, T0 + 2);
    await waiting(2);
    await row.release();
    expect(await recorded).toBe("recorded");
    await requeued;
    expect(await jobRow(holderDb, saveId)).toMatchObject({ stage: "generate", state: "pending", rerun: false, notify: true });
  });

  test("the requeue flags first: the holder sees the flag and sends the job to generate itself", async () => {
    const { holder, requeuer, holderDb, blocker, job, saveId, waiting } = await setUp();
    const row = await lockRow(blocker, job);
    const requeued = requeuer.requeueForRedraw(saveId, T0 + 1);
    await waiting(1);
    const recorded = holder.record(job, advanceChange("done", T0 + 2), T0 + 2);
    await waiting(2);
    await row.release();
    await requeued;
    expect(await recorded).toBe("redraw");
    expect(await jobRow(holderDb, saveId)).toMatchObject({ stage: "generate", state: "pending", rerun: false, notify: true });
  });
});

describe.skipIf(POSTGRES_MISSING !== null)("new work wakes other processes, on PostgreSQL", () => {
  test("a save enqueued, sent back to draw, reprocessed or retried by the owner on one process wakes a listener on another", async () => {
    const url = await databaseForThisFile("migrated");
    const [listenerDb, enqueuerDb] = [await openPostgres(url), await openPostgres(url)];
    try {
      let wakes = 0;
      const stop = await pgJobStore(listenerDb).listen(() => wakes++);
      const enqueuer = pgJobStore(enqueuerDb);
      const [save] = await enqueuerDb.insert(saves).values({ sha256: crypto.randomUUID(), playerId: "1234567890123456789", source: "upload", size: 3, receivedAt: T0 }).returning({ id: saves.id });
      await enqueuer.enqueueSave(save!.id, T0, false);
      await eventually(() => wakes === 1, 5_000, "the enqueue's wake-up");
      const job = (await enqueuer.claim(T0, LEASE, false))!;
      await enqueuer.record(job, advanceChange("done", T0 + 1), T0 + 1);
      await enqueuer.requeueForRedraw(save!.id, T0 + 2);
      await eventually(() => wakes === 2, 5_000, "the redraw's wake-up");
      await enqueuer.reprocess(save!.id, false, T0 + 3);
      await eventually(() => wakes === 3, 5_000, "the owner's reprocess wake-up");
      const again = (await enqueuer.claim(T0 + 4, LEASE, false))!;
      await enqueuer.transition(again, { state: "failed", lastError: "broken" }, T0 + 4);
      await enqueuer.retryFailed(T0 + 5);
      await eventually(() => wakes === 4, 5_000, "the owner's retry wake-up");
      await stop();
    } finally {
      await Promise.all([listenerDb.$client.end(), enqueuerDb.$client.end()]);
    }
  });

  test("an upload wakes the other processes unless its own free slot takes it, and never its own listener", async () => {
    const url = await databaseForThisFile("migrated");
    const [otherDb, senderDb] = [await openPostgres(url), await openPostgres(url)];
    try {
      const heard = { other: 0, own: 0 };
      const stops = [await pgJobStore(otherDb).listen(() => heard.other++), await pgJobStore(senderDb).listen(() => heard.own++)];
      const upload = (uploadId: string, keeps: boolean, db = senderDb) =>
        pgUploadStore(db).acceptChunk(
          { header: { uploadId, chunkIndex: 0, totalChunks: 1, originalUrl: null }, body: new Uint8Array(randomBytes(64)), playerId: null, origin: NO_ORIGIN, peer: "203.0.113.7", now: T0 },
          { ...UPLOAD_LIMITS, keepsNewSave: () => keeps },
        );
      expect(await upload("busy", false)).toMatchObject({ kind: "completed", created: true });
      await eventually(() => heard.other === 1, 5_000, "the other process's wake-up");
      expect(await upload("kept", true)).toMatchObject({ kind: "completed", created: true });
      expect(await upload("busy-again", false)).toMatchObject({ kind: "completed", created: true });
      // Notifications arrive in commit order: the second one heard means the kept upload sent none.
      await eventually(() => heard.other === 2, 5_000, "the third upload's wake-up");
      // The other way round: the sender's listener hears an upload of the other process's after its own three.
      await upload("from-the-other", false, otherDb);
      await eventually(() => heard.own === 1, 5_000, "the other process's upload heard");
      expect(heard).toEqual({ other: 2, own: 1 });
      for (const stop of stops) await stop();
    } finally {
      await Promise.all([otherDb.$client.end(), senderDb.$client.end()]);
    }
  });
});
