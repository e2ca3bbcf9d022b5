/**
 * What only the PostgreSQL delivery store has to do, several processes on one database: a holder whose lease is
 * being taken over while it claims a delivery attempt. The claim renews the lease in the same statement, so it
 * waits for the job's row and then sees the new holder's lease: its attempt is recorded nowhere (a third
 * connection takes the job over while the attempt lines up behind it).
 */
import { afterAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { eventually } from "../../scripts/lib/eventually.ts";
import { pgDeliveryStore } from "../../src/db/deliveries/pg.ts";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import { deliveries, saves } from "../../src/db/pg/schema.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { holderOf } from "../../src/store/model/jobs.ts";

const T0 = 1_700_000_000_000;
const LEASE = 60_000;

describe.skipIf(POSTGRES_MISSING !== null)("a delivery attempt during a takeover, on PostgreSQL", () => {
  const opened: { end: () => Promise<void> }[] = [];
  afterAll(() => Promise.all(opened.map((client) => client.end())));

  test("the stale holder's attempt waits for the job's row, then finds the lease another's and records nothing", async () => {
    const url = await databaseForThisFile("migrated");
    const db = await openPostgres(url);
    // One connection takes the job over in its transaction, the other watches who waits.
    const takeover = postgres(url, { max: 2 });
    opened.push(db.$client, takeover);
    const [save] = await db.insert(saves).values({ sha256: crypto.randomUUID(), playerId: "1234567890123456789", source: "upload", size: 3, receivedAt: T0 }).returning({ id: saves.id });
    const jobs = pgJobStore(db);
    const store = pgDeliveryStore(db);
    await jobs.enqueueSave(save!.id, T0, false);
    const stale = holderOf((await jobs.claim(T0, LEASE, false))!);
    await store.decidePush({ saveId: save!.id, playerId: "1234567890123456789", dropsFingerprint: "drops", checkRepeat: true }, [{ channel: "webhook", target: "default" }], new Set(["webhook"]), T0);
    const [delivery] = await db.select().from(deliveries);

    let lockedRow!: () => void;
    const rowLocked = new Promise<void>((resolve) => (lockedRow = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const tookOver = takeover.begin(async (tx) => {
      await tx`SELECT id FROM jobs WHERE id = ${stale.jobId} FOR UPDATE`;
      lockedRow();
      await committing;
      await tx`UPDATE jobs SET lease_id = ${crypto.randomUUID()}, lease_expires_at = ${T0 + 3 * LEASE} WHERE id = ${stale.jobId}`;
    });
    await rowLocked;
    // Its clock says the lease still runs: only the new lease id can stop it.
    let settled = false;
    const attempt = store.claimAttempt(stale, { id: delivery!.id, seenAttempts: 0 }, T0 + 1, LEASE).finally(() => (settled = true));
    const waiters = async () => (await takeover`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n;
    await eventually(async () => settled || (await waiters()) === 1, 10_000, "the attempt to settle or wait for the job's row");
    commit();
    await tookOver;
    expect(await attempt).toBe("lease_lost");
    expect(await db.select({ attempts: deliveries.attempts, state: deliveries.state }).from(deliveries)).toEqual([{ attempts: 0, state: "pending" }]);
    // The first PostgreSQL of the run may start here (initdb): seconds on a loaded machine.
  }, 30_000);
});
